using System.Text.Json;
using System.Xml.Linq;
using Azure;

namespace BenchDashboard.Runner.Tables;

/// <summary>
/// What an error answer's body says beyond what <see cref="RequestFailedException"/> carries: storage's XML
/// error (<c>&lt;Error&gt;&lt;Code/&gt;&lt;Message/&gt;&lt;/Error&gt;</c>, which Azurite sends for a refused signature
/// without an x-ms-error-code header, so the SDK reports only "Service request failed."), and the
/// <c>AuthenticationErrorDetail</c> the service adds to a refused sign-in ("Lifetime validation failed. The token
/// is expired."), in XML or inside the JSON <c>odata.error</c>.
/// </summary>
readonly record struct ServiceErrorBody(string? Code, string? Message, string? AuthenticationDetail)
{
    public static ServiceErrorBody Read(Response? response)
    {
        var body = response?.Content?.ToString()?.Trim();
        if (string.IsNullOrEmpty(body)) return default;
        try
        {
            if (body.StartsWith('<'))
            {
                var error = XElement.Parse(body);
                return new(error.Element("Code")?.Value, FirstLine(error.Element("Message")?.Value), FirstLine(error.Element("AuthenticationErrorDetail")?.Value));
            }
            using var document = JsonDocument.Parse(body);
            return document.RootElement.TryGetProperty("odata.error", out var odata) && odata.TryGetProperty("AuthenticationErrorDetail", out var detail)
                ? new(null, null, FirstLine(detail.GetString()))
                : default;
        }
        catch (Exception ex) when (ex is System.Xml.XmlException or JsonException or InvalidOperationException)
        {
            return default; // not an error body we know: the exception's own message stands
        }
    }

    /// <summary>The first line: the service appends "RequestId:…" and "Time:…" lines, which differ every time.</summary>
    public static string? FirstLine(string? text) => text?.Split('\n')[0].Trim();
}
