namespace BenchDashboard.TestSupport;

/// <summary>
/// A test's own results database on either provider, as the settings a host is given: a SQLite file in a temp
/// directory, or a fresh database on the assembly's PostgreSQL cluster (<see cref="PostgreSqlServer.Shared"/>),
/// dropped on dispose. Database:Path is set on both: on PostgreSQL it is where this machine's own files go.
/// </summary>
public sealed class TestDatabase : IAsyncDisposable
{
    /// <summary>The providers every database test runs on: theory data.</summary>
    public static TheoryProviders Providers => new() { "sqlite", "postgresql" };

    readonly TempDirectory dir = new();
    public string Provider { get; }
    public string? ConnectionString { get; }
    public string DatabasePath => dir.File("bench.db");

    /// <summary>What a host on this database is configured with (several hosts may share it).</summary>
    public Dictionary<string, string?> Settings => new()
    {
        ["Database:Provider"] = Provider,
        ["Database:Path"] = DatabasePath,
        ["ConnectionStrings:results"] = ConnectionString,
    };

    TestDatabase(string provider, string? connectionString)
    {
        Provider = provider;
        ConnectionString = connectionString;
    }

    public static async Task<TestDatabase> CreateAsync(string provider) => provider switch
    {
        "sqlite" => new TestDatabase(provider, null),
        "postgresql" => new TestDatabase(provider, await (await PostgreSqlServer.Shared).CreateDatabaseAsync()),
        _ => throw new ArgumentException($"Unknown provider {provider}", nameof(provider)),
    };

    public async ValueTask DisposeAsync()
    {
        if (ConnectionString is not null) await (await PostgreSqlServer.Shared).DropDatabaseAsync(ConnectionString);
        dir.Dispose();
    }
}

/// <summary>Theory data of provider names (xunit's MemberData takes any IEnumerable of object arrays).</summary>
public sealed class TheoryProviders : List<object[]>
{
    public void Add(string provider) => Add([provider]);
}
