using System.Text.Json;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Tables;

namespace BenchDashboard.Core.Tests.Benchmarks;

/// <summary>
/// The kinds inherit their load fields from <see cref="LoadParameters"/>, and their JSON stays flat: parameters
/// stored in that shape read back, and what is stored has the same shape.
/// </summary>
public class LoadParametersJsonTests
{
    // As HttpParameters serialized before the load fields were shared (Json.Options: camelCase, nulls written).
    const string StoredHttp = """
        {"url":"http://127.0.0.1:5080/target/delay?ms=2","method":"POST","headers":{"X-A":"1"},"body":"{}","requests":null,
         "durationSeconds":30,"model":"open","rate":250.5,"stages":[{"durationSeconds":10,"rate":500}],"concurrency":12,
         "keepAlive":false,"timeoutMs":2500,"warmupRequests":40,
         "variants":[{"name":"A","url":null,"method":null,"headers":null,"body":null,"keepAlive":null,"timeoutMs":null},
                     {"name":"slow","url":null,"method":null,"headers":null,"body":null,"keepAlive":null,"timeoutMs":9000}],
         "interleaveBlock":5}
        """;

    const string StoredTable = """
        {"connection":"tables","table":"bench","entityBytes":512,"operations":["batch"],"batchSize":20,"expect100Continue":[true],
         "nagle":[false,true],"requests":300,"durationSeconds":null,"model":"closed","rate":null,"stages":null,"concurrency":3,
         "warmupRequests":6,"timeoutMs":15000,"cleanup":false}
        """;

    const string StoredCache = """
        {"backend":"redis","connection":"redis","phases":["write","read-miss"],"requests":null,"durationSeconds":4,"keyCount":50,
         "valueBytes":64,"model":"closed","rate":null,"stages":null,"concurrency":2,"timeoutMs":700,"keyPrefix":"bd","cleanup":true,
         "variants":null,"interleaveBlock":1}
        """;

    [Fact]
    public void AStoredHttpParametersJsonOfTheFlatShapeReadsEveryLoadField()
    {
        var p = Json.Deserialize<HttpParameters>(StoredHttp);

        Assert.Equal((null, 30, LoadModel.Open, 250.5, 12, 2_500), (p.Requests, p.DurationSeconds, p.Model, p.Rate, p.Concurrency, p.TimeoutMs));
        Assert.Equal(new RateStage(10, 500), p.Stages!.Single());
        Assert.Equal(40, ((ILoadParameters)p).WarmupRequests);
        Assert.Equal(("POST", false, 5), (p.Method, p.KeepAlive, p.InterleaveBlock));
        Assert.Equal(9_000, p.Resolved()[1].Parameters.TimeoutMs);
        Assert.Equal(2_500, p.Resolved()[0].Parameters.TimeoutMs);
    }

    [Fact]
    public void AStoredTableAndCacheParametersJsonReadsToo()
    {
        var table = Json.Deserialize<TableParameters>(StoredTable);
        Assert.Equal((300, (int?)null, 3, 15_000, 6, 2), (table.Requests, table.DurationSeconds, table.Concurrency, table.TimeoutMs, table.WarmupRequests, table.OperationsPerRequest));

        var cache = Json.Deserialize<CacheParameters>(StoredCache);
        Assert.Equal(((int?)null, 4, 2, 700, CacheBackend.Redis), (cache.Requests, cache.DurationSeconds, cache.Concurrency, cache.TimeoutMs, cache.Backend));
    }

    [Fact]
    public void AnOldJsonWithoutATimeoutTakesTheKindsDefault()
    {
        Assert.Equal(10_000, Json.Deserialize<HttpParameters>("""{"url":"http://127.0.0.1/","requests":5}""").TimeoutMs);
        Assert.Equal(30_000, Json.Deserialize<TableParameters>("""{"connection":"t","requests":5}""").TimeoutMs);
        Assert.Equal(5_000, Json.Deserialize<CacheParameters>("""{"requests":5}""").TimeoutMs);
    }

    [Theory]
    [InlineData(StoredHttp, typeof(HttpParameters))]
    [InlineData(StoredTable, typeof(TableParameters))]
    [InlineData(StoredCache, typeof(CacheParameters))]
    public void WrittenAgainTheJsonHasExactlyTheStoredFlatShape(string stored, Type type)
    {
        var read = JsonSerializer.Deserialize(stored, type, Json.Options)!;
        var written = JsonSerializer.Serialize(read, type, Json.Options);

        // The same keys, flat (no "load" object, nothing computed such as timeout or operationsPerRequest, and
        // no warmupRequests on the cache), and the same values.
        Assert.Equal(Keys(stored), Keys(written));
        Assert.True(JsonElement.DeepEquals(JsonDocument.Parse(stored).RootElement, JsonDocument.Parse(written).RootElement), written);
    }

    static string[] Keys(string json) => JsonDocument.Parse(json).RootElement.EnumerateObject().Select(p => p.Name).Order().ToArray();
}
