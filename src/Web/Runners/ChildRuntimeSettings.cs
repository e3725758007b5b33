using BenchDashboard.Processing;
namespace BenchDashboard.Web.Runners;

/// <summary>
/// The runtime settings the child runner starts with, as environment variables: the runtime reads them once, at
/// start, for the whole process, so they cannot be set from inside it. A variable already in the dashboard's own
/// environment is left as it is: that is how a benchmark compares a setting with its default.
/// </summary>
public static class ChildRuntimeSettings
{
    public static IEnumerable<(string Name, string Value)> For(RunnerOptions options, Func<string, string?> ownEnvironment)
    {
        List<(string Name, string Value)> wanted = [];
        if (options.InlineSocketCompletions) wanted.AddRange([("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS", "1"), ("DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT", "1")]);
        // Both ways: the program's own runtimeconfig.json turns dynamic PGO off, for the dashboard too.
        wanted.Add(("DOTNET_TieredPGO", options.ChildDynamicPgo ? "1" : "0"));
        return wanted.Where(setting => ownEnvironment(setting.Name) is null);
    }
}
