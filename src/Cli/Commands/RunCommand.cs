using System.CommandLine;
using System.Text.Json;
using System.Text.Json.Nodes;
using BenchDashboard.Cli.Output;

namespace BenchDashboard.Cli.Commands;

/// <summary>
/// <c>run NAME|ID</c> starts a saved benchmark, <c>run --file params.json</c> the body of POST /api/runs;
/// either is followed until it ends, summarised, and the exit code says whether it passed.
/// </summary>
public static class RunCommand
{
    public static Command Create(DashboardOptions options, Terminal terminal)
    {
        var benchmark = new Argument<string?>("benchmark") { Description = "A saved benchmark's name or id.", Arity = ArgumentArity.ZeroOrOne };
        var file = new Option<FileInfo?>("--file", "-f") { Description = "A JSON file with the body of POST /api/runs (kind and parameters)." };
        var poll = new Option<int>("--poll-ms") { Description = "How often to ask for progress, in milliseconds.", DefaultValueFactory = _ => 1000 };
        var command = new Command("run", "Run a benchmark on the dashboard, follow it and exit 0 (passed), 1 (a limit failed or the run confirmed a regression) or 2 (it failed or could not start).")
        {
            benchmark, file, poll,
        };
        command.Validators.Add(result =>
        {
            if ((result.GetValue(benchmark) is null) == (result.GetValue(file) is null))
                result.AddError("Name a saved benchmark (run NAME or run ID) or give a file (run --file params.json), not both.");
        });
        poll.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int>() is < 100 or > 60_000) result.AddError("--poll-ms is 100 to 60000.");
        });
        command.SetAction((parse, ct) => Verb.RunAsync(terminal, parse.GetValue(options.Json), async () =>
        {
            using var client = options.Connect(parse, terminal);
            var started = parse.GetValue(file) is { } f
                ? await client.PostJsonAsync("/api/runs", ReadFile(f), ct)
                : await client.PostJsonAsync($"/api/benchmarks/{await BenchmarkLookup.IdOfAsync(client, parse.GetValue(benchmark)!, ct)}/runs", "{}", ct);
            var ids = RunIds(started).ToList();
            if (ids.Count == 0) throw new CliException($"The dashboard did not say which run it started: {started.GetRawText()}");
            var runs = new List<JsonElement>();
            foreach (var id in ids)
                runs.Add(await FollowAsync(client, id, TimeSpan.FromMilliseconds(parse.GetValue(poll)), terminal, ct));
            var exit = runs.Max(RunOutcome.ExitCodeOf);
            if (parse.GetValue(options.Json))
                terminal.Out.WriteLine(new JsonObject { ["verdict"] = RunOutcome.VerdictOf(exit), ["exitCode"] = exit, ["runs"] = JsonSerializer.SerializeToNode(runs) }.ToJsonString(Verb.Indented));
            else
                foreach (var run in runs) terminal.Out.Write(RunSummary.Format(run, client.BaseAddress));
            return exit;
        }));
        return command;
    }

    static string ReadFile(FileInfo file)
    {
        try
        {
            return File.ReadAllText(file.FullName);
        }
        catch (IOException ex)
        {
            throw new CliException($"Could not read {file.FullName}: {ex.Message}");
        }
        catch (UnauthorizedAccessException ex)
        {
            throw new CliException($"Could not read {file.FullName}: {ex.Message}");
        }
    }

    /// <summary>One run, or with <c>repeat</c> several queued together (their <c>runs</c>).</summary>
    static IEnumerable<long> RunIds(JsonElement started) =>
        started.Integer("id") is { } id ? [id] : started.Items("runs").Select(r => r.Integer("id")).OfType<long>();

    /// <summary>Polls the run's live figures until it ends, then reads it whole (statistics, limits, regression).</summary>
    static async Task<JsonElement> FollowAsync(DashboardClient client, long id, TimeSpan every, Terminal terminal, CancellationToken ct)
    {
        var progress = new ProgressLine(terminal);
        while (true)
        {
            var live = await client.GetAsync($"/api/runs/{id}/live", ct);
            progress.Show(live);
            if (RunOutcome.IsFinal(live.String("status"))) break;
            await Task.Delay(every, ct);
        }
        progress.Done();
        return await client.GetAsync($"/api/runs/{id}", ct);
    }
}
