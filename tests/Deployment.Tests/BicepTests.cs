using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Deployment.Tests;

/// <summary>deploy/main.bicep compiles and lints clean: any warning or error of the Bicep CLI fails the build.</summary>
public sealed partial class BicepTests
{
    /// <summary>Bicep's diagnostic lines: "path(line,col) : Warning rule-name: message".</summary>
    [GeneratedRegex(@"^.+\(\d+,\d+\) : (Warning|Error) .+$", RegexOptions.Multiline)]
    private static partial Regex Diagnostic();

    public static IReadOnlyList<string> Diagnostics(ToolResult result) =>
        Diagnostic().Matches(result.Out + "\n" + result.Error).Select(m => m.Value.Trim()).ToList();

    [Fact]
    public async Task TheTemplateBuildsWithoutAWarning()
    {
        var result = await Tool.RunAsync(Tool.Bicep, "build", Repository.File("deploy/main.bicep"), "--stdout");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Empty(Diagnostics(result));
        Assert.Contains("\"Microsoft.Web/sites\"", result.Out);
    }

    [Fact]
    public async Task TheTemplateLintsClean()
    {
        var result = await Tool.RunAsync(Tool.Bicep, "lint", Repository.File("deploy/main.bicep"));

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Empty(Diagnostics(result));
    }

    [Fact]
    public async Task TheLintCheckSeesAWarning()
    {
        // The same check on a template with an unused parameter: were Bicep's output format to change, the
        // two tests above would pass on anything, and this one would fail.
        using var dir = new TempDirectory();
        var template = dir.File("unused.bicep");
        await File.WriteAllTextAsync(template, "param unused string\noutput answer int = 42\n");

        var result = await Tool.RunAsync(Tool.Bicep, "lint", template);

        Assert.Contains(Diagnostics(result), d => d.Contains("Warning no-unused-params"));
    }
}
