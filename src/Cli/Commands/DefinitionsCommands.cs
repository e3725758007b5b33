using System.CommandLine;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Cli.Commands;

/// <summary>
/// Benchmarks as files: <c>export</c> writes GET /api/benchmarks/export, <c>import</c> sends a file to
/// POST /api/benchmarks/import (all or nothing; <c>--dry-run</c> only says what would change).
/// </summary>
public static class DefinitionsCommands
{
    public static Command Export(DashboardOptions options, Terminal terminal)
    {
        var output = new Option<FileInfo?>("--output", "-o") { Description = "Write to this file instead of standard output." };
        var command = new Command("export", "Export every saved benchmark as one JSON document.") { output };
        command.SetAction((parse, ct) => Verb.RunAsync(terminal, parse.GetValue(options.Json), async () =>
        {
            using var client = options.Connect(parse, terminal);
            var document = await client.GetAsync("/api/benchmarks/export", ct);
            var json = JsonSerializer.Serialize(document, Verb.Indented) + "\n";
            if (parse.GetValue(output) is { } file)
            {
                await File.WriteAllTextAsync(file.FullName, json, new UTF8Encoding(false), ct);
                await terminal.Error.WriteLineAsync($"Exported {document.Items("benchmarks").Count()} benchmarks to {file.FullName}");
            }
            else terminal.Out.Write(json);
            return ExitCodes.Passed;
        }));
        return command;
    }

    public static Command Import(DashboardOptions options, Terminal terminal)
    {
        var file = new Argument<FileInfo>("file") { Description = "A document written by export ({\"benchmarks\":[…]})." };
        var dryRun = new Option<bool>("--dry-run") { Description = "Say what would be created and updated, and change nothing." };
        var command = new Command("import", "Create or update benchmarks by name from a file: all of them, or none when one is refused.") { file, dryRun };
        command.SetAction((parse, ct) => Verb.RunAsync(terminal, parse.GetValue(options.Json), async () =>
        {
            using var client = options.Connect(parse, terminal);
            var path = parse.GetValue(file)!.FullName;
            if (!File.Exists(path)) throw new CliException($"No file {path}.");
            var body = await File.ReadAllTextAsync(path, ct);
            var answer = await client.PostJsonAsync("/api/benchmarks/import" + (parse.GetValue(dryRun) ? "?dryRun=true" : ""), body, ct);
            terminal.Out.Write(parse.GetValue(options.Json) ? JsonSerializer.Serialize(answer, Verb.Indented) + "\n" : Format(answer));
            return ExitCodes.Passed;
        }));
        return command;
    }

    /// <summary>"Would create 2: a, b" or "Created 2: a, b", then updated and unchanged alike (counts or lists of names).</summary>
    public static string Format(JsonElement answer)
    {
        var dry = answer.Boolean("dryRun") == true;
        var text = new StringBuilder();
        foreach (var (field, done, would) in new[] { ("created", "Created", "Would create"), ("updated", "Updated", "Would update"), ("unchanged", "Unchanged", "Unchanged") })
        {
            var value = answer.Field(field);
            var names = value is { ValueKind: JsonValueKind.Array } list ? list.EnumerateArray().Select(n => n.ValueKind == JsonValueKind.String ? Core.Runs.Text.RunText.Printable(n.GetString()!) : n.String("name")).ToList() : null;
            var count = names?.Count ?? (value is { ValueKind: JsonValueKind.Number } n2 ? n2.GetInt32() : 0);
            text.Append(dry ? would : done).Append(": ").Append(count);
            if (names is { Count: > 0 }) text.Append(" (").Append(string.Join(", ", names)).Append(')');
            text.AppendLine();
        }
        if (dry) text.AppendLine("Dry run: nothing was changed.");
        return text.ToString();
    }
}
