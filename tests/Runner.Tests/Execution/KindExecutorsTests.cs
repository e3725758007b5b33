using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Tests.Examples.TcpConnect;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Tests.Execution;

public sealed class KindExecutorsTests
{
    static readonly IOptions<RunLimits> Limits = Options.Create(new RunLimits());

    [Fact]
    public void AKindNameFindsTheExecutorOfItsParametersTypeWhateverTheCase()
    {
        var example = new TcpConnectBenchmark();
        var executors = new KindExecutors([new TcpConnectKind(Limits)], [example]);

        var found = executors.Find("TCPCONNECT");

        Assert.NotNull(found);
        Assert.Same(example, found.Value.Executor);
        Assert.Equal(TcpConnectKind.KindName, found.Value.Kind.Name);
        Assert.Empty(executors.Unserved);
    }

    [Fact]
    public void AnUnknownNameOrAKindWithoutAnExecutorFindsNothingAndTheKindIsListedAsUnserved()
    {
        var executors = new KindExecutors([new TcpConnectKind(Limits)], []);

        Assert.Null(executors.Find(TcpConnectKind.KindName));
        Assert.Null(executors.Find("nosuchkind"));
        Assert.Null(executors.Find(null));
        Assert.Equal([TcpConnectKind.KindName], executors.Unserved.Select(k => k.Name));
    }
}
