using System.Text.Json.Nodes;
using BenchDashboard.Core.Benchmarks;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace BenchDashboard.Web.Api;

/// <summary>
/// The OpenAPI document's body of <c>POST /api/runs</c>: one of the registered kinds' parameters records, each
/// with its <c>kind</c>, discriminated by it. The endpoint reads the body itself (strictly, with field errors),
/// so without this the document could only say "an object"; with it, each kind's fields and types are listed,
/// and a new kind appears by being registered.
/// </summary>
public sealed class RunRequestSchema(BenchmarkKinds kinds) : IOpenApiOperationTransformer
{
    public async Task TransformAsync(OpenApiOperation operation, OpenApiOperationTransformerContext context, CancellationToken ct)
    {
        if (context.Description.HttpMethod != "POST" || context.Description.RelativePath?.TrimEnd('/') != "api/runs") return;
        var variants = new List<IOpenApiSchema>();
        foreach (var kind in kinds.All)
        {
            var parameters = await context.GetOrCreateSchemaAsync(kind.ParametersType, null, ct);
            var tag = new OpenApiSchema
            {
                Type = JsonSchemaType.Object,
                Required = new HashSet<string> { "kind" },
                Properties = new Dictionary<string, IOpenApiSchema>
                {
                    ["kind"] = new OpenApiSchema { Type = JsonSchemaType.String, Enum = [JsonValue.Create(kind.Name)], Description = kind.Title },
                    ["repeat"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Minimum = "2", Maximum = RepeatRequest.MaxTimes.ToString(), Description = "Queue this many runs of these parameters together (a history, or groups to compare)." },
                    ["separateRuns"] = new OpenApiSchema { Type = JsonSchemaType.Boolean, Description = "With variants and repeat: each variant as runs of its own, queued A B A B …; the answer links their comparison." },
                    ["agents"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Minimum = "1", Description = "Spread the run over this many runner agents on other machines (linked to /agents/connect); the load (connections, requests, rate) is divided between them." },
                    ["onEach"] = new OpenApiSchema { Type = JsonSchemaType.Array, MinItems = Core.Agents.OnEach.MinAgents, MaxItems = Core.Agents.OnEach.MaxAgents, Items = new OpenApiSchema { Type = JsonSchemaType.String }, Description = "Run the whole workload on each of these linked agents in turn, a series per agent (\"cfg0\", \"cfg0/create\"); any kind; not with agents." },
                    ["rounds"] = new OpenApiSchema { Type = JsonSchemaType.Integer, Minimum = "1", Maximum = Core.Agents.OnEach.MaxRounds.ToString(), Default = JsonValue.Create(Core.Agents.OnEach.DefaultRounds), Description = "With onEach: the turns each agent takes; each round's first agent is drawn." },
                },
            };
            variants.Add(new OpenApiSchema { Title = $"{kind.Name}: {kind.Title}", AllOf = [tag, parameters] });
        }
        operation.RequestBody = new OpenApiRequestBody
        {
            Required = true,
            Description = "A run of one kind: its name in \"kind\" and its parameters; an unknown field is an error, not ignored.",
            Content = new Dictionary<string, OpenApiMediaType>
            {
                ["application/json"] = new() { Schema = new OpenApiSchema { OneOf = variants, Discriminator = new OpenApiDiscriminator { PropertyName = "kind" } } },
            },
        };
    }
}
