using System.Reflection;
using NetArchTest.Rules;

namespace BenchDashboard.Web.Tests.Architecture;

/// <summary>
/// The projects match the processes and Core is in layers (docs/layout.md): each assembly references only those
/// below it, the dashboard knows the runner only in its host, and no folder of Core uses one above it. Read from
/// the compiled assemblies, so a using that is never used does not count and a fully qualified name does.
/// </summary>
public sealed class LayeringTests
{
    static readonly Assembly Core = typeof(BenchDashboard.Core.Json).Assembly;
    static readonly Assembly ServiceDefaults = typeof(BenchDashboard.ServiceDefaults.CheckedOptions).Assembly;
    static readonly Assembly Processing = typeof(BenchDashboard.Processing.RunnerOptions).Assembly;
    static readonly Assembly Runner = typeof(BenchDashboard.Runner.RunnerServices).Assembly;
    static readonly Assembly Web = typeof(BenchDashboard.Web.WebServices).Assembly;

    /// <summary>Core's folders from the bottom: the model, statistics over it, what is computed from both, storage; the kinds on top.</summary>
    static readonly string[][] CoreLayers =
    [
        ["Text", "Runs", "Benchmarks", "Agents", "Security"],
        ["Statistics"],
        ["Comparisons", "Calibration", "Notifications", "Reports"],
        ["Data", "Stores"],
        ["Kinds"],
    ];

    public static TheoryData<string, string[]> References => new()
    {
        { "BenchDashboard.Core", [] },
        { "BenchDashboard.ServiceDefaults", [] },
        { "BenchDashboard.PostgreSql", ["BenchDashboard.Core"] },
        { "BenchDashboard.Processing", ["BenchDashboard.Core", "BenchDashboard.ServiceDefaults"] },
        { "BenchDashboard.Runner", ["BenchDashboard.Core", "BenchDashboard.ServiceDefaults", "BenchDashboard.Processing", "BenchDashboard.PostgreSql"] },
        { "BenchDashboard.Web", ["BenchDashboard.Core", "BenchDashboard.ServiceDefaults", "BenchDashboard.Processing", "BenchDashboard.Runner", "BenchDashboard.PostgreSql"] },
    };

    [Theory, MemberData(nameof(References))]
    public void EachAssemblyReferencesOnlyThoseBelowIt(string name, string[] allowed)
    {
        var assembly = Assembly.Load(name);
        var ours = assembly.GetReferencedAssemblies().Select(a => a.Name!).Where(n => n.StartsWith("BenchDashboard.", StringComparison.Ordinal));
        Assert.All(ours, reference => Assert.Contains(reference, allowed));
    }

    [Fact]
    public void CoreNeedsNoWebFramework()
    {
        var references = Core.GetReferencedAssemblies().Select(a => a.Name!).ToList();
        Assert.DoesNotContain(references, n => n.StartsWith("Microsoft.AspNetCore", StringComparison.Ordinal));
        Assert.NotEmpty(references); // read, not assumed
    }

    [Fact]
    public void OnlyTheDashboardsHostKnowsTheRunner()
    {
        var result = Types.InAssembly(Web).That().DoNotResideInNamespace("BenchDashboard.Web.Hosting").And().DoNotHaveName("Program")
            .ShouldNot().HaveDependencyOnAny(Names(Runner)).GetResult();
        Assert.True(result.IsSuccessful, "Outside Web/Hosting: " + string.Join(", ", result.FailingTypeNames ?? []));
        // And the host does use it: the rule above is not met by an empty set.
        Assert.False(Types.InAssembly(Web).That().ResideInNamespace("BenchDashboard.Web.Hosting").ShouldNot().HaveDependencyOnAny(Names(Runner)).GetResult().IsSuccessful);
    }

    [Fact]
    public void TheRunnersProcessesNeedNothingOfTheDashboard()
    {
        foreach (var assembly in new[] { Processing, Runner, ServiceDefaults })
        {
            var result = Types.InAssembly(assembly).ShouldNot().HaveDependencyOnAny(Names(Web)).GetResult();
            Assert.True(result.IsSuccessful, $"{assembly.GetName().Name}: " + string.Join(", ", result.FailingTypeNames ?? []));
        }
        var processing = Types.InAssembly(Processing).ShouldNot().HaveDependencyOnAny(Names(Runner)).GetResult();
        Assert.True(processing.IsSuccessful, "Processing uses the runner: " + string.Join(", ", processing.FailingTypeNames ?? []));
    }

    /// <summary>
    /// What a dependency on <paramref name="assembly"/> is matched by: its namespaces, and for a type in its root
    /// namespace the type's full name. The rules match by prefix, and read string constants as well: the runner's
    /// meter is named "BenchDashboard.Runner" without being a dependency on the runner's root namespace.
    /// </summary>
    static string[] Names(Assembly assembly)
    {
        var root = assembly.GetName().Name!;
        return assembly.GetTypes().Where(t => t.Namespace is not null && !t.Name.StartsWith('<'))
            .Select(t => t.Namespace == root ? t.FullName! : t.Namespace!).Distinct().ToArray();
    }

    public static TheoryData<string> CoreFolders => new(CoreLayers.SelectMany(l => l));

    [Theory, MemberData(nameof(CoreFolders))]
    public void NoFolderOfCoreUsesOneAboveIt(string folder)
    {
        var layer = Array.FindIndex(CoreLayers, l => l.Contains(folder));
        var above = CoreLayers.Skip(layer + 1).SelectMany(l => l).Select(f => "BenchDashboard.Core." + f).ToArray();
        var types = Types.InAssembly(Core).That().ResideInNamespace("BenchDashboard.Core." + folder);
        Assert.NotEmpty(types.GetTypes());
        if (above.Length == 0) return;
        var result = types.ShouldNot().HaveDependencyOnAny(above).GetResult();
        Assert.True(result.IsSuccessful, $"{folder} uses a folder above it: " + string.Join(", ", result.FailingTypeNames ?? []));
    }

    [Fact]
    public void EveryFolderOfCoreIsInALayer()
    {
        var folders = Core.GetTypes().Select(t => t.Namespace).OfType<string>()
            .Where(n => n.StartsWith("BenchDashboard.Core.", StringComparison.Ordinal))
            .Select(n => n["BenchDashboard.Core.".Length..].Split('.')[0]).Distinct();
        Assert.All(folders, f => Assert.Contains(CoreLayers, l => l.Contains(f)));
    }
}
