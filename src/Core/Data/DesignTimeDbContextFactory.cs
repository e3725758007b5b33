using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Design;

namespace BenchDashboard.Core.Data;

/// <summary>Lets `dotnet ef migrations add` build the SQLite model without starting a host (PostgreSQL's: src/PostgreSql).</summary>
sealed class DesignTimeDbContextFactory : IDesignTimeDbContextFactory<BenchDbContext>
{
    public BenchDbContext CreateDbContext(string[] args) =>
        new(DatabaseProviders.UseSqlite(new DbContextOptionsBuilder<BenchDbContext>(), "design-time.db", 30).Options);
}
