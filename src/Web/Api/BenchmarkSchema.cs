using System.Text.Json.Nodes;
using BenchDashboard.Core.Benchmarks;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace BenchDashboard.Web.Api;

/// <summary>
/// The OpenAPI document's saved benchmarks, typed per kind as <see cref="RunRequestSchema"/> types runs: one of
/// the registered kinds' definitions, discriminated by <c>kind</c>, each with its parameters record. Applied to
/// the bodies of create, replace and import and to the answers that return definitions (which the endpoints
/// build from stored JSON, so the generator alone could only say "an object").
/// </summary>
public sealed class BenchmarkSchema(BenchmarkKinds kinds) : IOpenApiOperationTransformer
{
    public async Task TransformAsync(OpenApiOperation operation, OpenApiOperationTransformerContext context, CancellationToken ct)
    {
        var path = context.Description.RelativePath?.TrimEnd('/');
        var method = context.Description.HttpMethod;
        if (path is null || !path.StartsWith("api/benchmarks", StringComparison.Ordinal)) return;
        switch (method, path)
        {
            case ("POST", "api/benchmarks"):
                SetBody(operation, await OneOfKindsAsync(context, withId: false, ct), "A benchmark of one kind; an unknown field is an error, not ignored.");
                SetAnswer(operation, "201", await OneOfKindsAsync(context, withId: true, ct));
                break;
            case ("PUT", "api/benchmarks/{id}"):
                SetBody(operation, await OneOfKindsAsync(context, withId: false, ct), "The whole definition (what is left out takes its default); send If-Match with the ETag last read.");
                SetAnswer(operation, "200", await OneOfKindsAsync(context, withId: true, ct));
                break;
            case ("GET", "api/benchmarks/{id}"):
                SetAnswer(operation, "200", await OneOfKindsAsync(context, withId: true, ct));
                break;
            case ("GET", "api/benchmarks"):
                SetAnswer(operation, "200", new OpenApiSchema { Type = JsonSchemaType.Array, Items = await OneOfKindsAsync(context, withId: true, ct) });
                break;
            case ("GET", "api/benchmarks/export"):
                SetAnswer(operation, "200", await FileAsync(context, ct));
                break;
            case ("POST", "api/benchmarks/import"):
                SetBody(operation, await FileAsync(context, ct), "Benchmarks created or updated by name, all or nothing, as the export gives them.");
                break;
        }
    }

    async Task<IOpenApiSchema> FileAsync(OpenApiOperationTransformerContext context, CancellationToken ct) => new OpenApiSchema
    {
        Type = JsonSchemaType.Object,
        Required = new HashSet<string> { "benchmarks" },
        Properties = new Dictionary<string, IOpenApiSchema>
        {
            ["benchmarks"] = new OpenApiSchema { Type = JsonSchemaType.Array, Items = await OneOfKindsAsync(context, withId: false, ct), Description = "Sorted by name; each name once." },
        },
    };

    async Task<IOpenApiSchema> OneOfKindsAsync(OpenApiOperationTransformerContext context, bool withId, CancellationToken ct)
    {
        var thresholds = await context.GetOrCreateSchemaAsync(typeof(Thresholds), null, ct);
        var variants = new List<IOpenApiSchema>();
        foreach (var kind in kinds.All)
        {
            var properties = new Dictionary<string, IOpenApiSchema>();
            if (withId) properties["id"] = new OpenApiSchema { Type = JsonSchemaType.Integer };
            properties["name"] = new OpenApiSchema { Type = JsonSchemaType.String, MinLength = 1, MaxLength = 200, Description = "Unique; an import matches benchmarks by it." };
            properties["kind"] = new OpenApiSchema { Type = JsonSchemaType.String, Enum = [JsonValue.Create(kind.Name)], Description = kind.Title };
            properties["parameters"] = await context.GetOrCreateSchemaAsync(kind.ParametersType, null, ct);
            properties["schedule"] = new OpenApiSchema { Type = JsonSchemaType.String | JsonSchemaType.Null, Description = "Cron: 5 fields, or 6 with seconds first; null: on demand only." };
            properties["timeZone"] = new OpenApiSchema { Type = JsonSchemaType.String, Default = JsonValue.Create(CronSchedules.DefaultTimeZone), Description = "The IANA zone the schedule is read in." };
            properties["enabled"] = new OpenApiSchema { Type = JsonSchemaType.Boolean, Default = JsonValue.Create(true) };
            properties["thresholds"] = new OpenApiSchema { OneOf = [thresholds, new OpenApiSchema { Type = JsonSchemaType.Null }], Description = "Pass/fail limits, which judge each run alone, and the change rule over the history (changeMarginPercent, confirmRuns); null: no limits, the default rule." };
            properties["agents"] = new OpenApiSchema { Type = JsonSchemaType.Integer | JsonSchemaType.Null, Minimum = "1", Description = "Spread its runs over this many runner agents; null: the dashboard's own runner." };
            properties["onEach"] = new OpenApiSchema
            {
                Type = JsonSchemaType.Array | JsonSchemaType.Null, MinItems = Core.Agents.OnEach.MinAgents, MaxItems = Core.Agents.OnEach.MaxAgents,
                Items = new OpenApiSchema { Type = JsonSchemaType.String }, Description = "Its runs run the whole workload on each of these agents in turn, as a series per agent (not with agents); null: not so.",
            };
            properties["rounds"] = new OpenApiSchema { Type = JsonSchemaType.Integer | JsonSchemaType.Null, Minimum = "1", Maximum = Core.Agents.OnEach.MaxRounds.ToString(), Default = JsonValue.Create(Core.Agents.OnEach.DefaultRounds), Description = "With onEach: the turns each agent takes." };
            properties["webhooks"] = new OpenApiSchema
            {
                Type = JsonSchemaType.Array | JsonSchemaType.Null, MaxItems = Core.Notifications.WebhookUrls.MaxCount,
                Items = new OpenApiSchema { Type = JsonSchemaType.String, Format = "uri", MaxLength = Core.Notifications.WebhookUrls.MaxLength },
                Description = "URLs told (a signed POST) when a run fails, fails a limit or regresses; only scheme and host are shown to anyone but an administrator.",
            };
            variants.Add(new OpenApiSchema
            {
                Title = $"{kind.Name}: {kind.Title}",
                Type = JsonSchemaType.Object,
                Required = new HashSet<string> { "name", "kind", "parameters" },
                Properties = properties,
                AdditionalPropertiesAllowed = false,
            });
        }
        return new OpenApiSchema { OneOf = variants, Discriminator = new OpenApiDiscriminator { PropertyName = "kind" } };
    }

    static void SetBody(OpenApiOperation operation, IOpenApiSchema schema, string description) =>
        operation.RequestBody = new OpenApiRequestBody
        {
            Required = true,
            Description = description,
            Content = new Dictionary<string, OpenApiMediaType> { ["application/json"] = new() { Schema = schema } },
        };

    static void SetAnswer(OpenApiOperation operation, string status, IOpenApiSchema schema)
    {
        if (operation.Responses?.TryGetValue(status, out var response) != true || response!.Content is not { } content) return;
        content["application/json"] = new OpenApiMediaType { Schema = schema };
    }
}
