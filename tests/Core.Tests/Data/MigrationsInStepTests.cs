using BenchDashboard.Core.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>
/// One model, two sets of migrations: a change to an entity or a configuration needs a migration for each
/// provider (docs/storage.md says how). Neither check needs a database: each compares the model with its
/// provider's latest snapshot.
/// </summary>
public sealed class MigrationsInStepTests
{
    static BenchDbContext Sqlite() => new(DatabaseProviders.UseSqlite(new DbContextOptionsBuilder<BenchDbContext>(), "unused.db", 1).Options);
    static BenchDbContext PostgreSql() => new(DatabaseProviders.UsePostgreSql(new DbContextOptionsBuilder<BenchDbContext>(), "Host=127.0.0.1;Database=unused").Options);

    [Fact]
    public void SqliteMigrationsHoldEveryChangeToTheModel()
    {
        using var db = Sqlite();
        Assert.False(db.Database.HasPendingModelChanges(), "the model has changes with no SQLite migration: dotnet ef migrations add NAME --project src/Core");
    }

    [Fact]
    public void PostgreSqlMigrationsHoldEveryChangeToTheModel()
    {
        using var db = PostgreSql();
        Assert.False(db.Database.HasPendingModelChanges(), "the model has changes with no PostgreSQL migration: dotnet ef migrations add NAME --project src/PostgreSql --startup-project src/PostgreSql");
    }

    [Fact]
    public void EachProviderReadsMigrationsOfItsOwn()
    {
        using var sqlite = Sqlite();
        using var postgres = PostgreSql();
        var sqliteMigrations = sqlite.GetService<IMigrationsAssembly>();
        var postgresMigrations = postgres.GetService<IMigrationsAssembly>();
        Assert.Equal("BenchDashboard.Core", sqliteMigrations.Assembly.GetName().Name);
        Assert.Equal(DatabaseProviders.PostgreSqlMigrationsAssembly, postgresMigrations.Assembly.GetName().Name);
        Assert.NotEmpty(postgresMigrations.Migrations);
        Assert.Empty(postgresMigrations.Migrations.Keys.Intersect(sqliteMigrations.Migrations.Keys));
    }
}
