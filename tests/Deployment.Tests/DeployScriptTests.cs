using BenchDashboard.TestSupport;

namespace BenchDashboard.Deployment.Tests;

/// <summary>
/// deploy/deploy.sh's order of work, with no Azure here: <c>az</c>, <c>dotnet</c> and <c>curl</c> are stand-ins
/// first on PATH that write down how they were called and answer as the real ones would (the deployment's
/// configurationSlots output, a host name, a 200 from /healthz). What Azure then does with the calls is not tested.
/// </summary>
public sealed class DeployScriptTests
{
    const string FakeAz = """
        #!/usr/bin/env bash
        echo "az $*" >> "$FAKE_LOG"
        case "$1 $2 $3" in
          "deployment group show") printf '%s\n' $FAKE_CONFIGURATIONS ;;
          "webapp show "*) slot=production; while [ $# -gt 0 ]; do [ "$1" = --slot ] && slot=$2; shift; done; echo "benchapp-$slot.example" ;;
        esac
        """;

    const string FakeDotnet = """
        #!/usr/bin/env bash
        echo "dotnet $1" >> "$FAKE_LOG"
        while [ $# -gt 0 ]; do [ "$1" = -o ] && { mkdir -p "$2"; echo site > "$2/BenchDashboard.Web.dll"; }; shift; done
        """;

    const string FakeCurl = """
        #!/usr/bin/env bash
        echo "curl ${*: -1}" >> "$FAKE_LOG"
        while [ $# -gt 0 ]; do [ "$1" = -o ] && echo '{"status":"Healthy"}' > "$2"; shift; done
        printf 200
        """;

    static async Task<(ToolResult Result, IReadOnlyList<string> Calls)> RunAsync(string configurations, params string[] arguments)
    {
        using var dir = new TempDirectory();
        var bin = Directory.CreateDirectory(dir.File("bin")).FullName;
        foreach (var (name, script) in new[] { ("az", FakeAz), ("dotnet", FakeDotnet), ("curl", FakeCurl) })
        {
            await File.WriteAllTextAsync(Path.Combine(bin, name), script.ReplaceLineEndings("\n") + "\n");
            if (!OperatingSystem.IsWindows()) File.SetUnixFileMode(Path.Combine(bin, name), UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }
        var log = dir.File("calls.log");
        var environment = new Dictionary<string, string>
        {
            ["PATH"] = $"{bin}:{Environment.GetEnvironmentVariable("PATH")}", ["FAKE_LOG"] = log, ["FAKE_CONFIGURATIONS"] = configurations,
        };

        var result = await Tool.RunAsync("bash", environment, [Repository.File("deploy/deploy.sh"), .. arguments]);
        return (result, File.Exists(log) ? await File.ReadAllLinesAsync(log) : []);
    }

    [Fact]
    public async Task ConfigurationsGetTheSamePackageAsProductionAfterIt()
    {
        var (result, calls) = await RunAsync("cfg0 cfg1 cfg2", "bench-rg", "benchapp", "--configurations", "configurations");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal("az deployment group show --resource-group bench-rg --name configurations --query properties.outputs.configurationSlots.value -o tsv", calls[0]);
        Assert.Equal(1, calls.Count(c => c.StartsWith("dotnet publish", StringComparison.Ordinal)));
        var deploys = calls.Where(c => c.StartsWith("az webapp deploy ", StringComparison.Ordinal)).ToList();
        Assert.Equal(4, deploys.Count);
        Assert.DoesNotContain("--slot", deploys[0]);
        Assert.Equal(["--slot cfg0", "--slot cfg1", "--slot cfg2"], deploys.Skip(1).Select(d => d.Split(" --src-path")[0].Split("benchapp ")[1]));
        Assert.Single(deploys.Select(d => d.Split("--src-path ")[1]).Distinct());
        Assert.Equal(["https://benchapp-production.example/healthz", "https://benchapp-cfg0.example/healthz", "https://benchapp-cfg1.example/healthz", "https://benchapp-cfg2.example/healthz"],
            calls.Where(c => c.StartsWith("curl", StringComparison.Ordinal)).Select(c => c["curl ".Length..]));
        Assert.DoesNotContain(calls, c => c.Contains("swap", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ADeploymentWithoutConfigurationsDeploysNothing()
    {
        var (result, calls) = await RunAsync("", "bench-rg", "benchapp", "--configurations", "main");

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("made no configuration slots", result.Error);
        Assert.DoesNotContain(calls, c => c.StartsWith("az webapp", StringComparison.Ordinal) || c.StartsWith("dotnet", StringComparison.Ordinal));
    }

    [Fact]
    public async Task WithoutConfigurationsItStillDeploysTheStagingSlotAndSwaps()
    {
        var (result, calls) = await RunAsync("", "bench-rg", "benchapp", "--swap");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(["--slot staging"], calls.Where(c => c.StartsWith("az webapp deploy ", StringComparison.Ordinal)).Select(d => d.Split(" --src-path")[0].Split("benchapp ")[1]));
        Assert.Equal("az webapp deployment slot swap --resource-group bench-rg --name benchapp --slot staging --target-slot production", calls[^1]);
    }
}
