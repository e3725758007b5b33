using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Runner.Execution;

/// <summary>A fixed number of operations, one after another on one worker: the load of a kind that walks through a list (files).</summary>
public sealed record SequentialLoad(int Count) : ILoadParameters
{
    public LoadModel Model => LoadModel.Closed;
    public double? Rate => null;
    public List<RateStage>? Stages => null;
    public int? Requests => Count;
    public int? DurationSeconds => null;
    public int Concurrency => 1;
}
