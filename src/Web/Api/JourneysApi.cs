using System.Text.Json;
using System.Text.Json.Serialization;
using BenchDashboard.Core.Kinds.Http.Journeys.Har;

namespace BenchDashboard.Web.Api;

/// <summary>
/// Journeys brought in from elsewhere: <c>POST /api/journeys/har</c> turns a browser's saved session (the HAR file's
/// JSON as the body; <c>?keepStatic=true</c> keeps images, scripts, styles and fonts) into steps, in the run API's
/// <c>steps</c> JSON, for the editor to show before anything is saved. Nothing is stored.
/// </summary>
public static class JourneysApi
{
    /// <summary>The steps as <c>POST /api/runs</c> takes them: fields that are not set are left out.</summary>
    static readonly JsonSerializerOptions Written = new(Core.Json.Options) { DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull };

    public static RouteGroupBuilder MapJourneysApi(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/journeys").WithTags("Journeys");
        // The body is read as it comes (up to 10 MiB), not bound: its shape is the HAR 1.2 format's.
        group.MapPost("/har", ImportHarAsync).Accepts<JsonElement>("application/json").Produces<HarJourney>().ProducesValidationProblem().Produces(StatusCodes.Status413PayloadTooLarge);
        return group;
    }

    static Task<IResult> ImportHarAsync(HttpRequest request, CancellationToken ct, bool keepStatic = false) => ConvertHarAsync(request, keepStatic, ct);

    /// <summary>The conversion, also for the forms' own address (<c>/journeys/har</c>), which takes the signed-in cookie the API does not.</summary>
    public static async Task<IResult> ConvertHarAsync(HttpRequest request, bool keepStatic, CancellationToken ct)
    {
        // As ApiJson: exactly application/json, which a page of another site cannot send without asking first.
        if (!Microsoft.Net.Http.Headers.MediaTypeHeaderValue.TryParse(request.ContentType, out var type)
            || !string.Equals(type.MediaType.Value, "application/json", StringComparison.OrdinalIgnoreCase))
            return Refused("body", "Send the HAR file's JSON with Content-Type: application/json.", StatusCodes.Status415UnsupportedMediaType);

        var buffer = new MemoryStream();
        var chunk = new byte[64 * 1024];
        int read;
        while ((read = await request.Body.ReadAsync(chunk, ct)) > 0)
        {
            if (buffer.Length + read > HarImport.MaxBytes)
                return Refused("body", $"A HAR file of at most {HarImport.MaxBytes / 1024 / 1024} MiB: save only the requests of the journey.", StatusCodes.Status413PayloadTooLarge);
            buffer.Write(chunk, 0, read);
        }

        var errors = new Dictionary<string, List<string>>();
        var journey = HarImport.Convert(buffer.GetBuffer().AsMemory(0, (int)buffer.Length), keepStatic, (field, message) =>
        {
            if (!errors.TryGetValue(field, out var list)) errors[field] = list = [];
            list.Add(message);
        });
        if (journey is null) return TypedResults.ValidationProblem(errors.ToDictionary(e => e.Key, e => e.Value.ToArray()));
        return TypedResults.Json(journey, Written);
    }

    static IResult Refused(string field, string message, int status) =>
        TypedResults.Problem(new HttpValidationProblemDetails(new Dictionary<string, string[]> { [field] = [message] }) { Status = status, Title = "The request body was refused." });
}
