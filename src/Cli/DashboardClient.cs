using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Cli;

/// <summary>
/// The dashboard's JSON API over HTTP. Every failure becomes a <see cref="CliException"/> that says what went
/// wrong in the user's terms: the dashboard could not be reached, the key was refused, or the field errors of
/// a refused request, one per line.
/// </summary>
public sealed class DashboardClient : IDisposable
{
    readonly HttpClient http;
    readonly bool hasKey;

    public DashboardClient(Uri baseAddress, string? apiKey, TimeSpan? timeout = null)
    {
        // Generous: a dashboard on a busy machine (its runner measuring beside it) may be slow to answer.
        http = new HttpClient { BaseAddress = baseAddress, Timeout = timeout ?? TimeSpan.FromSeconds(100) };
        hasKey = !string.IsNullOrEmpty(apiKey);
        if (hasKey) http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", apiKey);
    }

    public Uri BaseAddress => http.BaseAddress!;

    public Task<JsonElement> GetAsync(string path, CancellationToken ct) => SendAsync(HttpMethod.Get, path, null, ct);

    public Task<JsonElement> PostJsonAsync(string path, string json, CancellationToken ct) =>
        SendAsync(HttpMethod.Post, path, new StringContent(json, Encoding.UTF8, "application/json"), ct);

    public async Task<JsonElement> SendAsync(HttpMethod method, string path, HttpContent? content, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(method, path) { Content = content };
        HttpResponseMessage response;
        try
        {
            response = await http.SendAsync(request, ct);
        }
        catch (HttpRequestException ex)
        {
            throw new CliException($"Could not reach the dashboard at {BaseAddress}: {ex.Message}");
        }
        catch (TaskCanceledException) when (!ct.IsCancellationRequested)
        {
            throw new CliException($"The dashboard at {BaseAddress} did not answer {method} {path} within {http.Timeout.TotalSeconds:0} s.");
        }
        using (response)
        {
            var text = await response.Content.ReadAsStringAsync(ct);
            if (response.IsSuccessStatusCode) return Parse(text, method, path);
            throw Refusal(response.StatusCode, text, method, path);
        }
    }

    CliException Refusal(HttpStatusCode status, string text, HttpMethod method, string path)
    {
        var code = (int)status;
        if (status == HttpStatusCode.Unauthorized)
            return new CliException(hasKey ? "401: the API key was refused" : "401: the dashboard needs an API key (--api-key or BENCHDASH_API_KEY)");
        // The API answers an unknown id, and a dashboard older than this client an unknown route, with an empty 404.
        if (status == HttpStatusCode.NotFound && text.Length == 0)
            return new CliException($"404: {method} {path.Split('?')[0]} was not found: no such benchmark or run, or a dashboard older than this client.");
        var problem = TryParse(text);
        var title = problem is { } p && p.TryGetProperty("title", out var t) && t.ValueKind == JsonValueKind.String ? t.GetString() : null;
        var detail = problem is { } d && d.TryGetProperty("detail", out var dt) && dt.ValueKind == JsonValueKind.String ? dt.GetString() : null;
        var message = new StringBuilder($"{code}: {title ?? (text.Length is > 0 and < 300 && problem is null ? text : status.ToString())}");
        if (detail is not null) message.Append(' ').Append(detail);
        if (problem is { } e && e.TryGetProperty("errors", out var errors) && errors.ValueKind == JsonValueKind.Object)
            foreach (var field in errors.EnumerateObject())
                foreach (var error in field.Value.EnumerateArray())
                    message.Append($"\n  {(field.Name.Length == 0 ? "body" : field.Name)}: {error}");
        return new CliException(message.ToString());
    }

    static JsonElement Parse(string text, HttpMethod method, string path)
    {
        if (text.Length == 0) return default;
        return TryParse(text) ?? throw new CliException($"{method} {path} did not answer JSON: {text[..Math.Min(200, text.Length)]}");
    }

    static JsonElement? TryParse(string text)
    {
        try
        {
            return JsonDocument.Parse(text).RootElement.Clone();
        }
        catch (JsonException)
        {
            return null;
        }
    }

    public void Dispose() => http.Dispose();
}
