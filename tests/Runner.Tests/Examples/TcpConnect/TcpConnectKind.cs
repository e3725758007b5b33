using System.Net;
using BenchDashboard.Core.Benchmarks;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Tests.Examples.TcpConnect;

/// <summary>
/// A tiny example kind: how long a TCP connect to a loopback listener takes. What the shared code asks about it
/// (its name, how it is validated and described) is here; the load is the runner's (<see cref="TcpConnectBenchmark"/>).
/// </summary>
public sealed class TcpConnectKind(IOptions<RunLimits> limits) : BenchmarkKind<TcpConnectParameters>
{
    public const string KindName = "tcpConnect";
    public override string Name => KindName;
    public override string Title => "TCP connect (example)";
    public override string SampleNoun => "connects";

    public override Task<Dictionary<string, string[]>> ValidateAsync(TcpConnectParameters p, CancellationToken ct)
    {
        var errors = new Dictionary<string, List<string>>();
        void Add(string field, string message)
        {
            if (!errors.TryGetValue(field, out var list)) errors[field] = list = [];
            list.Add(message);
        }
        // An example that anyone may run: loopback only, so it never loads another machine.
        if (!IPAddress.TryParse(p.Host, out var address) || !IPAddress.IsLoopback(address)) Add("host", "The example connects to a loopback address only.");
        if (p.Port is < 1 or > 65535) Add("port", "The port must be between 1 and 65535.");
        LoadFieldsValidator.Validate(p, limits.Value, new LoadCounting("connects"), Add);
        return Task.FromResult(errors.ToDictionary(e => e.Key, e => e.Value.ToArray()));
    }

    public override string Describe(TcpConnectParameters p) => $"TCP connect to {p.Host}:{p.Port}";
}
