using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchDashboard.Web.Api;

/// <summary>How an answer with a table form is written: <c>?format=json</c> (the default), <c>markdown</c> (or <c>md</c>), <c>text</c>, and <c>csv</c> where a table has one.</summary>
public enum AnswerFormat { Json, Markdown, Text, Csv }

public static class AnswerFormats
{
    /// <summary>Reads <c>?format=</c>; false for a value the endpoint does not answer in (a 400 naming <c>format</c>, never JSON by default).</summary>
    public static bool TryParse(string? value, bool csv, out AnswerFormat format)
    {
        AnswerFormat? parsed = value?.Trim().ToLowerInvariant() switch
        {
            null or "" or "json" => AnswerFormat.Json,
            "markdown" or "md" => AnswerFormat.Markdown,
            "text" or "txt" => AnswerFormat.Text,
            "csv" when csv => AnswerFormat.Csv,
            _ => null,
        };
        format = parsed ?? AnswerFormat.Json;
        return parsed is not null;
    }

    public static ValidationProblem Refused(bool csv) => TypedResults.ValidationProblem(new Dictionary<string, string[]>
    {
        ["format"] = [csv ? "Choose json (the default), markdown, text or csv." : "Choose json (the default), markdown or text."],
    });

    /// <summary>Markdown or plain text as UTF-8, shown in the browser rather than downloaded (the copy buttons fetch it).</summary>
    public static IResult Body(string body, AnswerFormat format) =>
        TypedResults.Text(body, format == AnswerFormat.Markdown ? "text/markdown; charset=utf-8" : "text/plain; charset=utf-8");
}
