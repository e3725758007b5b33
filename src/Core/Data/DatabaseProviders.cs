using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Data;

/// <summary>
/// The two stores of the one model: SQLite (a file on this machine, the default) and PostgreSQL (a server shared
/// by several dashboards and runners). Each has its own migrations: SQLite's in Core (where every existing
/// database's history points), PostgreSQL's in <see cref="PostgreSqlMigrationsAssembly"/>.
/// </summary>
public static class DatabaseProviders
{
    public const string Sqlite = "sqlite", PostgreSql = "postgresql";
    public const string PostgreSqlMigrationsAssembly = "BenchDashboard.PostgreSql";

    /// <summary>The name of the connection string (<c>ConnectionStrings:results</c>) PostgreSQL is reached with.</summary>
    public const string ConnectionStringName = "results";

    public static TBuilder UseSqlite<TBuilder>(TBuilder builder, string path, int busyTimeoutSeconds) where TBuilder : DbContextOptionsBuilder
    {
        builder.UseSqlite(new SqliteConnectionStringBuilder { DataSource = path, DefaultTimeout = busyTimeoutSeconds }.ToString());
        return builder;
    }

    public static TBuilder UsePostgreSql<TBuilder>(TBuilder builder, string connectionString) where TBuilder : DbContextOptionsBuilder
    {
        builder.UseNpgsql(connectionString, npgsql => npgsql.MigrationsAssembly(PostgreSqlMigrationsAssembly));
        return builder;
    }

    /// <summary>Whether this context talks to PostgreSQL (the few provider-specific paths ask this, nothing else).</summary>
    public static bool IsPostgreSql(this BenchDbContext db) => db.Database.IsNpgsql();
}
