using BenchDashboard.Core.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Design;

namespace BenchDashboard.PostgreSql;

/// <summary>
/// Lets `dotnet ef migrations add X --project src/PostgreSql` build the PostgreSQL model without a server
/// (adding a migration needs none).
/// </summary>
sealed class DesignTimeDbContextFactory : IDesignTimeDbContextFactory<BenchDbContext>
{
    public BenchDbContext CreateDbContext(string[] args) =>
        new(DatabaseProviders.UsePostgreSql(new DbContextOptionsBuilder<BenchDbContext>(), "Host=127.0.0.1;Database=design_time").Options);
}
