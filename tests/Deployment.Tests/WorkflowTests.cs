using System.Text.RegularExpressions;
using YamlDotNet.RepresentationModel;

namespace BenchDashboard.Deployment.Tests;

/// <summary>The GitHub workflows are valid YAML, and every script a step runs is in the repository.</summary>
public sealed partial class WorkflowTests
{
    /// <summary>A path a run step executes: after bash/sh/source, or a relative path to a script (./x, dir/x.sh).</summary>
    [GeneratedRegex(@"(?:\b(?:bash|sh|source)\s+(?:-\S+\s+)*(?<path>[^\s;&|""'$]+))|(?<path>(?:\.{0,2}/)?(?:[\w.-]+/)+[\w.-]+\.(?:sh|bash|ps1|py))")]
    private static partial Regex ScriptPath();

    public static IEnumerable<object[]> Workflows() =>
        Directory.EnumerateFiles(Repository.File(".github/workflows"), "*.y*ml").Order(StringComparer.Ordinal).Select(f => new object[] { Path.GetFileName(f) });

    /// <summary>Every <c>run:</c> of every step of every job, as (job, step name, script).</summary>
    public static IReadOnlyList<(string Job, string Step, string Run)> RunSteps(string yaml)
    {
        var stream = new YamlStream();
        stream.Load(new StringReader(yaml));
        var root = (YamlMappingNode)stream.Documents.Single().RootNode;
        var jobs = (YamlMappingNode)root.Children[new YamlScalarNode("jobs")];
        var steps = new List<(string, string, string)>();
        foreach (var (jobName, job) in jobs.Children)
        {
            if (((YamlMappingNode)job).Children.TryGetValue(new YamlScalarNode("steps"), out var list))
                foreach (var step in ((YamlSequenceNode)list).Children.Cast<YamlMappingNode>())
                    if (step.Children.TryGetValue(new YamlScalarNode("run"), out var run))
                        steps.Add((jobName.ToString(), step.Children.TryGetValue(new YamlScalarNode("name"), out var name) ? name.ToString() : "", ((YamlScalarNode)run).Value ?? ""));
        }
        return steps;
    }

    /// <summary>The scripts a run step names that are not in the repository.</summary>
    public static IEnumerable<string> MissingScripts(string run) =>
        ScriptPath().Matches(run).Select(m => m.Groups["path"].Value)
            .Where(path => !path.StartsWith('-') && !File.Exists(Path.Combine(Repository.Root, path)));

    [Theory]
    [MemberData(nameof(Workflows))]
    public void EveryScriptAStepRunsExists(string workflow)
    {
        var steps = RunSteps(File.ReadAllText(Repository.File(Path.Combine(".github/workflows", workflow))));

        Assert.NotEmpty(steps);
        Assert.All(steps, step => Assert.True(!MissingScripts(step.Run).Any(),
            $"{workflow}: job {step.Job}, step \"{step.Step}\" runs {string.Join(", ", MissingScripts(step.Run))}, which is not in the repository"));
    }

    [Fact]
    public void AStepThatNamesAMissingScriptIsCaught()
    {
        const string yaml = "jobs:\n  build:\n    steps:\n      - name: Test\n        run: bash scripts/test.sh\n      - run: |\n          ./deploy/gone.sh --slot staging\n          bash scripts/nope.sh\n";

        var missing = RunSteps(yaml).SelectMany(s => MissingScripts(s.Run)).ToList();

        Assert.Equal(["./deploy/gone.sh", "scripts/nope.sh"], missing);
    }

    [Fact]
    public void InvalidYamlIsRefused()
    {
        Assert.ThrowsAny<YamlDotNet.Core.YamlException>(() => RunSteps("jobs:\n  build:\n    steps: [\n      - run: x\n"));
    }
}
