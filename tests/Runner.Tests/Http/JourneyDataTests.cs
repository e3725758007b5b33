using System.Net.Http.Json;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>A journey's data file: its rows reach the requests, one an iteration, in the mode asked for.</summary>
public sealed class JourneyDataTests
{
    /// <summary>Signs in as the row's user with the row's password; the target lists each sign-in's user.</summary>
    static HttpStep SignIn(KestrelTarget target) => new()
    {
        Name = "signin",
        Method = "POST",
        Url = target.Url("/journey/signin").ToString(),
        Headers = new() { ["Content-Type"] = "application/json" },
        Body = """{"user":"{{user}}","password":"{{password}}"}""",
        Extract = [new() { Name = "token", Json = "$.token" }],
        Checks = [new() { Status = 200 }],
    };

    static HttpStep Orders(KestrelTarget target) => new()
    {
        Name = "orders",
        Url = target.Url("/journey/orders").ToString(),
        Headers = new() { ["Authorization"] = "Bearer {{token}}" },
        Checks = [new() { Json = "$.user", Matches = "^u[0-9]+$" }],
    };

    /// <summary>Users u0 … u(n−1), each with the password that signs in; one quoted, with a comma in a field nobody reads.</summary>
    static HttpDataFile Users(int rows, string mode) => new()
    {
        Name = "users.csv",
        Format = "csv",
        Mode = mode,
        Content = "user,password,note\r\n" + string.Concat(Enumerable.Range(0, rows).Select(i => $"u{i},secret,\"row {i}, quoted\"\r\n")),
    };

    static async Task<string[]> UsersAsync(KestrelTarget target)
    {
        using var client = new HttpClient();
        return (await client.GetFromJsonAsync<string[]>(target.Url("/journey/users")))!;
    }

    static List<Sample> Of(List<Sample> samples, string series) => samples.Where(s => s.Series == series && !s.IsWarmup).ToList();

    [Fact]
    public async Task EachRowOnceIsUsedOnceThenTheRunStopsTakingIterationsAndSaysSo()
    {
        await using var target = await KestrelTarget.StartAsync();
        var p = new HttpParameters { Steps = [SignIn(target), Orders(target)], Data = Users(25, HttpDataFile.Once), Requests = 100, Concurrency = 4, WarmupRequests = 3 };
        Assert.Empty(HttpParametersValidator.Validate(p, new RunLimits()));

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        var users = await UsersAsync(target);
        Assert.Equal(Enumerable.Range(0, 25).Select(i => $"u{i}").Order(), users.Order());
        // Every sample a whole iteration's: 3 warm-up and 22 measured, each with both steps, all passing.
        Assert.Equal(3 * 3, samples.Count(s => s.IsWarmup));
        Assert.Equal(22, Of(samples, "iteration").Count);
        Assert.Equal(22, Of(samples, "signin").Count);
        Assert.Equal(22, Of(samples, "orders").Count);
        Assert.All(samples, s => Assert.Equal(ErrorKind.None, s.Error));
        Assert.Equal(samples.Count, samples.Select(s => s.Index).Distinct().Count());
        Assert.Contains("The data file's 25 rows were used up after 25 iterations (warm-up included): each row is used once, so the run took no more.", notes.Notes);
        Assert.Contains(notes.Notes, n => n.StartsWith("Data file: csv, 25 rows, each row once", StringComparison.Ordinal));
    }

    [Fact]
    public async Task AnOpenRunWithEachRowOnceEndsItsScheduleWhenTheRowsAreUsedUp()
    {
        await using var target = await KestrelTarget.StartAsync();
        var p = new HttpParameters
        {
            Steps = [SignIn(target), Orders(target)], Data = Users(30, HttpDataFile.Once),
            Model = LoadModel.Open, Rate = 200, DurationSeconds = 30, Concurrency = 4,
        };
        Assert.Empty(HttpParametersValidator.Validate(p, new RunLimits()));

        var started = System.Diagnostics.Stopwatch.StartNew();
        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        Assert.True(started.Elapsed < TimeSpan.FromSeconds(15), $"took {started.Elapsed}: the schedule went on after the rows were used up");
        Assert.Equal(30, Of(samples, "iteration").Count);
        Assert.Equal(30, (await UsersAsync(target)).Distinct().Count());
        Assert.Contains(notes.Notes, n => n.StartsWith("The data file's 30 rows were used up after 30 iterations:", StringComparison.Ordinal));
    }

    [Fact]
    public async Task VariantsShareTheRunsRowsAndADurationEndsEarlyWhenTheyAreUsedUp()
    {
        await using var target = await KestrelTarget.StartAsync();
        var p = new HttpParameters
        {
            Steps = [SignIn(target), Orders(target)], Data = Users(40, HttpDataFile.Once), DurationSeconds = 60, Concurrency = 2,
            Variants = [new() { Name = "A" }, new() { Name = "B", Steps = [SignIn(target), Orders(target) with { Name = "list" }] }],
        };
        Assert.Empty(HttpParametersValidator.Validate(p, new RunLimits()));

        var started = System.Diagnostics.Stopwatch.StartNew();
        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        Assert.True(started.Elapsed < TimeSpan.FromSeconds(20), $"took {started.Elapsed}");
        Assert.Equal(Enumerable.Range(0, 40).Select(i => $"u{i}").Order(), (await UsersAsync(target)).Order());
        Assert.Equal(40, Of(samples, "A/iteration").Count + Of(samples, "B/iteration").Count);
        Assert.True(Of(samples, "B/list").Count > 0);
        Assert.Contains(notes.Notes, n => n.StartsWith("The data file's 40 rows were used up after 40 iterations:", StringComparison.Ordinal));
    }

    [Fact]
    public async Task SequentialRowsGoRoundInOrderAndWrapAfterTheLast()
    {
        await using var target = await KestrelTarget.StartAsync();
        var p = new HttpParameters { Steps = [SignIn(target), Orders(target)], Data = Users(4, HttpDataFile.Sequential), Requests = 10, Concurrency = 1 };

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        Assert.Equal(["u0", "u1", "u2", "u3", "u0", "u1", "u2", "u3", "u0", "u1"], await UsersAsync(target));
        Assert.Equal(10, Of(samples, "iteration").Count);
        Assert.All(samples, s => Assert.Equal(ErrorKind.None, s.Error));
        Assert.DoesNotContain(notes.Notes, n => n.Contains("used up", StringComparison.Ordinal));
    }

    [Fact]
    public async Task RandomRowsComeFromTheFileAndNotInItsOrder()
    {
        await using var target = await KestrelTarget.StartAsync();
        var jsonl = new HttpDataFile
        {
            Name = "users.jsonl", Format = "jsonl", Mode = HttpDataFile.Random,
            Content = string.Concat(Enumerable.Range(0, 20).Select(i => $$"""{"user":"u{{i}}","password":"secret"}""" + "\n")),
        };
        var p = new HttpParameters { Steps = [SignIn(target), Orders(target)], Data = jsonl, Requests = 200, Concurrency = 2 };

        var (samples, _, _) = await HttpRun.ExecuteWithNotesAsync(p);

        var users = await UsersAsync(target);
        Assert.Equal(200, users.Length);
        Assert.All(users, u => Assert.Matches("^u([0-9]|1[0-9])$", u));
        // 200 draws from 20 rows: all but surely most rows, some twice, and not the file's order over and over.
        Assert.True(users.Distinct().Count() >= 15, $"{users.Distinct().Count()} distinct rows of 20");
        Assert.NotEqual(Enumerable.Range(0, 200).Select(i => $"u{i % 20}"), users);
        Assert.All(samples, s => Assert.Equal(ErrorKind.None, s.Error));
    }

    [Fact]
    public async Task ARowsWrongPasswordFailsOnlyItsOwnIterations()
    {
        await using var target = await KestrelTarget.StartAsync();
        var data = new HttpDataFile { Name = "users.csv", Format = "csv", Mode = HttpDataFile.Sequential, Content = "user,password\nu1,secret\nu2,wrong\n" };
        var p = new HttpParameters { Steps = [SignIn(target), Orders(target)], Data = data, Requests = 10, Concurrency = 1 };

        var (samples, _, notes) = await HttpRun.ExecuteWithNotesAsync(p);

        var signIns = Of(samples, "signin");
        Assert.Equal(5, signIns.Count(s => s.Error == ErrorKind.CheckFailed && s.StatusCode == 401));
        Assert.Equal(5, Of(samples, "orders").Count);
        // No note quotes a row's values.
        Assert.DoesNotContain(notes.ErrorMessages, e => e.Message.Contains("wrong", StringComparison.Ordinal));
    }
}
