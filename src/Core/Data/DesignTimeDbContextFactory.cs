using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Design;

namespace BenchDashboard.Core.Data;

/// <summary>Lets `dotnet ef migrations add` build the model without starting a host.</summary>
sealed class DesignTimeDbContextFactory : IDesignTimeDbContextFactory<BenchDbContext>
{
    public BenchDbContext CreateDbContext(string[] args) =>
        new(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite("Data Source=design-time.db").Options);
}
