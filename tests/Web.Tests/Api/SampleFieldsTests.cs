using System.Globalization;
using System.Net.Http.Json;
using System.Reflection;
using System.Text.Json;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Processing.Storing;
using BenchDashboard.Runner.Execution;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>
/// Every property of <see cref="Sample"/> reaches each place a sample goes: the writer's INSERT, an agent's
/// sample frame, the service-time copy, the API's JSON and the CSV export. The properties are found by
/// reflection, each given a value of its own, so a field added to <see cref="Sample"/> and not carried
/// somewhere fails here.
/// </summary>
public class SampleFieldsTests
{
    static readonly PropertyInfo[] Properties = typeof(Sample).GetProperties(BindingFlags.Public | BindingFlags.Instance);
    static readonly string[] PlannedSeries = ["warm", "small/read-same"];

    /// <summary>A sample whose every property holds a value unlike its type's default and unlike the others'.</summary>
    static Sample Distinct(long runId)
    {
        var sample = new Sample();
        for (var n = 0; n < Properties.Length; n++)
        {
            var property = Properties[n];
            var type = Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType;
            object value = type switch
            {
                _ when type == typeof(long) => 1_000_000_007L * (n + 1),
                _ when type == typeof(int) => 1_000 + n,
                // IsWarmup true and Hit false: both unlike their defaults (false, null) and unlike each other, so a swap shows.
                _ when type == typeof(bool) => property.PropertyType == typeof(bool),
                _ when type == typeof(ErrorKind) => ErrorKind.HttpStatus,
                _ when type == typeof(string) => PlannedSeries[1],
                _ => throw new InvalidOperationException($"Sample.{property.Name} is a {type.Name}: give it a value here, then carry it everywhere a sample goes."),
            };
            property.SetValue(sample, value);
        }
        sample.RunId = runId;
        return sample;
    }

    static void AssertSame(Sample expected, Sample actual, string where, params string[] carriedElsewhere)
    {
        foreach (var property in Properties.Where(p => !carriedElsewhere.Contains(p.Name)))
            Assert.True(Equals(property.GetValue(expected), property.GetValue(actual)),
                $"{where} lost Sample.{property.Name}: {property.GetValue(expected)} became {property.GetValue(actual) ?? "null"}.");
    }

    [Fact]
    public void EveryFieldCrossesAnAgentsSampleFrame()
    {
        var sample = Distinct(runId: 1);
        var header = new SampleBatchHeader(sample.Shard!.Value, Epoch: 3, Sequence: 0, Count: 1);

        var (decoded, samples) = SampleFrames.Decode(SampleFrames.Encode(header, [sample], PlannedSeries), PlannedSeries);

        // The run is the link's; the shard is the frame header's, which the dashboard gives each sample it stores.
        Assert.Equal(header, decoded);
        AssertSame(sample, samples.Single(), "A sample frame", nameof(Sample.RunId), nameof(Sample.Shard));
    }

    [Fact]
    public void EveryFieldSurvivesTheServiceTimeCopy()
    {
        var sample = Distinct(runId: 1);
        var lag = sample.LagNs!.Value;

        var service = LatencyBasis.Service.Apply([sample]).Single();

        Assert.NotSame(sample, service);
        Assert.Equal((sample.OffsetNs + lag, sample.LatencyNs - lag, (long?)null), (service.OffsetNs, service.LatencyNs, service.LagNs));
        AssertSame(sample, service, "The service-time copy", nameof(Sample.OffsetNs), nameof(Sample.LatencyNs), nameof(Sample.LagNs));
    }

    [Fact]
    public async Task EveryFieldIsStoredByTheWriterAndServedByTheApiAndTheCsv()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        long runId;
        using (var scope = app.Services.CreateScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var run = new Run { Kind = HttpKind.KindName, ParametersJson = "{}", Status = RunStatus.Completed, QueuedUtcMs = 1 };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            runId = run.Id;
        }
        var sample = Distinct(runId);
        using var storing = new BackgroundThread("test storing", nice: 0);
        var writer = new SampleWriter(app.Services.GetRequiredService<IServiceScopeFactory>(), batchSize: 10, TimeSpan.Zero, capacity: 10, giveUpAfter: TimeSpan.FromSeconds(30), storing);
        Assert.True(writer.TryAdd(sample));
        writer.Complete();
        await writer.WriteAllAsync();
        Assert.Equal(1, writer.Stored);

        using (var scope = app.Services.CreateScope())
        {
            var stored = Assert.Single(await RunSamples.ListAsync(scope.ServiceProvider.GetRequiredService<BenchDbContext>(), runId));
            AssertSame(sample, stored, "The writer");
        }

        // The API: the run is its address; durations in nanoseconds become milliseconds (…Ns → …Ms).
        var json = (await client.GetFromJsonAsync<JsonElement>($"/api/runs/{runId}/samples")).EnumerateArray().Single();
        foreach (var property in Properties.Where(p => p.Name != nameof(Sample.RunId)))
        {
            var name = JsonNamingPolicy.CamelCase.ConvertName(property.Name.EndsWith("Ns", StringComparison.Ordinal) ? property.Name[..^2] + "Ms" : property.Name);
            Assert.True(json.TryGetProperty(name, out var value), $"The API's sample has no '{name}' for Sample.{property.Name}.");
            var inNs = property.Name.EndsWith("Ns", StringComparison.Ordinal);
            (object? Expected, object? Actual) pair = property.GetValue(sample) switch
            {
                long ns when inNs => (ns / 1e6, value.GetDouble()),
                long number => (number, value.GetInt64()),
                int number => (number, value.GetInt32()),
                bool flag => (flag, value.GetBoolean()),
                ErrorKind error => (JsonNamingPolicy.CamelCase.ConvertName(error.ToString()), value.GetString()),
                var other => (other, value.GetString()),
            };
            var (expected, actual) = pair;
            Assert.True(Equals(expected, actual), $"The API's '{name}' is {actual}, not Sample.{property.Name}'s {expected}.");
        }

        // The CSV: a column per field, under the name SampleColumns gives it; flags as 1 or 0.
        var csv = (await client.GetStringAsync($"/api/runs/{runId}/samples?format=csv")).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var header = csv[0].Split(',');
        var row = csv[1].Split(',');
        foreach (var property in Properties.Where(p => p.Name != nameof(Sample.RunId)))
        {
            var column = SampleColumns.All.SingleOrDefault(c => c.Name == property.Name)?.Csv;
            Assert.True(column is not null, $"Sample.{property.Name} has no CSV column in SampleColumns.");
            var at = Array.IndexOf(header, column);
            Assert.True(at >= 0, $"The CSV has no '{column}' column for Sample.{property.Name}.");
            var expected = property.GetValue(sample) switch
            {
                bool flag => flag ? "1" : "0",
                IFormattable value => value.ToString(null, CultureInfo.InvariantCulture),
                var value => value?.ToString(),
            };
            Assert.Equal(expected, row[at]);
        }
    }
}
