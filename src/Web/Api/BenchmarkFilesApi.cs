using System.Text.Json;
using System.Text.Json.Nodes;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Web.Api;

/// <summary>
/// Benchmarks as code: every definition exported as one JSON document, and such a document imported (created or
/// updated by name, all or nothing, <c>?dryRun=true</c> to see what would change). An export read with the
/// administrator's key imports into another dashboard as it was; anyone else's has secrets fingerprinted.
/// </summary>
public static class BenchmarkFilesApi
{
    public static void MapBenchmarkFiles(this RouteGroupBuilder group)
    {
        group.MapGet("/export", ExportAsync).Produces<BenchmarkFileDto>();
        group.MapPost("/import", ImportAsync).Produces<ImportResult>().ProducesValidationProblem();
    }

    static async Task<IResult> ExportAsync(BenchmarkStore store, ParameterDisplay display, HttpContext context, CancellationToken ct)
    {
        var shown = RunsApi.ReaderOf(context, display);
        var benchmarks = (await store.ListAsync(ct)).OrderBy(b => b.Name, StringComparer.Ordinal)
            .Select(b => BenchmarkDefinitionDto.From(BenchmarkDto.From(b, shown))).ToList();
        return TypedResults.Ok(new BenchmarkFileDto(benchmarks));
    }

    static async Task<IResult> ImportAsync(HttpRequest request, BenchmarkKinds kinds, BenchmarkImport import, CancellationToken ct, bool dryRun = false)
    {
        var (body, invalid, status) = await ApiJson.ReadObjectAsync(request, ct);
        if (body is null) return TypedResults.Problem(new HttpValidationProblemDetails(invalid) { Status = status, Title = "The request body was refused." });
        var errors = new Dictionary<string, string[]>();
        foreach (var (field, _) in body.Where(p => !p.Key.Equals("benchmarks", StringComparison.OrdinalIgnoreCase)))
            errors[field] = [$"Unknown field '{field}': the document is {{\"benchmarks\":[…]}}, as the export gives it."];
        if (body.FirstOrDefault(p => p.Key.Equals("benchmarks", StringComparison.OrdinalIgnoreCase)).Value is not JsonArray list)
        {
            errors["benchmarks"] = ["Give the benchmarks as a list: {\"benchmarks\":[{\"name\":…,\"kind\":…,\"parameters\":{…}}, …]}."];
            return TypedResults.ValidationProblem(errors);
        }

        var inputs = new List<BenchmarkInput?>();
        for (var i = 0; i < list.Count; i++)
        {
            if (list[i] is not JsonObject entry)
            {
                errors[$"benchmarks[{i}]"] = ["Each benchmark is an object, as in POST /api/benchmarks."];
                inputs.Add(null);
                continue;
            }
            var entryErrors = new Dictionary<string, string[]>();
            inputs.Add(BenchmarkBody.Read(entry, kinds, entryErrors));
            var label = entry["name"] is JsonValue name && name.GetValueKind() == JsonValueKind.String ? $"'{name.GetValue<string>()}'" : $"benchmarks[{i}]";
            foreach (var (field, messages) in entryErrors) errors[$"benchmarks[{i}].{field}"] = messages.Select(m => $"{label}: {m}").ToArray();
        }
        // Still validated when some could not be read, so that one answer names every error.
        var (result, refused) = await import.ImportAsync(inputs, dryRun || errors.Count > 0, ct);
        foreach (var (field, messages) in refused) errors[field] = messages;
        if (errors.Count > 0) return TypedResults.ValidationProblem(errors);
        return TypedResults.Ok(result);
    }
}
