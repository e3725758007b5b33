using System.Diagnostics;
using System.Threading.Channels;
using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;
using BenchDashboard.ServiceDefaults;

namespace BenchDashboard.Runner.Agents;

/// <summary>
/// A shard of a run that the dashboard leased to this agent: waits for the start time the dashboard
/// names (on its clock, through this agent's <see cref="ClockOffset"/>), runs the kind's executor on the shard's
/// parameters, and sends every sample back in binary frames through an <see cref="AckWindow"/>, so a slow
/// dashboard slows the sending; then says it is done. Samples wait in a bounded buffer of
/// <see cref="BufferSamples"/>: when the dashboard falls that far behind, the load stops rather than measuring
/// into memory, as the runner does when its storage falls behind. The load stops when the dashboard says stop
/// and when the link ends (<see cref="Abandon"/>): a lost dashboard must never leave an agent loading a target.
/// </summary>
sealed class AgentShard(AgentFrame assign, Core.Benchmarks.IBenchmarkKind kind, IBenchmarkExecutor executor, FrameLink link)
{
    public const int BufferSamples = 1 << 18;

    /// <summary>How long the sender waits for more samples before sending a frame that is not full.</summary>
    static readonly TimeSpan Gather = TimeSpan.FromMilliseconds(25);

    readonly IReadOnlyList<string> series = assign.Series ?? [];
    readonly CancellationTokenSource stop = new();
    readonly AckWindow window = new(AgentProtocol.AckWindowFrames);
    readonly Channel<Sample> outgoing = Channel.CreateBounded<Sample>(new BoundedChannelOptions(BufferSamples) { SingleReader = true });
    string? stopReason;

    public long RunId { get; } = assign.RunId ?? throw new InvalidDataException("An assignment without a run.");
    public int Shard { get; } = assign.Shard ?? throw new InvalidDataException("An assignment without a shard.");
    public long Epoch { get; } = assign.Epoch ?? throw new InvalidDataException("An assignment without an epoch.");

    /// <summary>Set once the load has ended and done was said (or the link ended).</summary>
    public Task Finished => finished.Task;
    readonly TaskCompletionSource finished = new(TaskCreationOptions.RunContinuationsAsynchronously);

    int begun;

    /// <summary>Cancelled <see cref="AgentProtocol.Lease"/> after a stop: as long as the dashboard waits for a stopped shard's samples.</summary>
    readonly CancellationTokenSource drain = new();

    /// <summary>Whether its load was started (a shard stopped before that never runs, and frees the agent at once).</summary>
    public bool Begun => Volatile.Read(ref begun) == 1;

    public void Stop(string why)
    {
        Interlocked.CompareExchange(ref stopReason, why, null);
        stop.Cancel();
        try
        {
            drain.CancelAfter(AgentProtocol.Lease);
        }
        catch (ObjectDisposedException)
        {
        }
        if (!Begun) finished.TrySetResult(); // stopped before its start: it never runs
    }

    /// <summary>The link ended: the load stops at once, and nothing more is sent.</summary>
    public void Abandon() => Stop("the link to the dashboard ended");

    public void Acknowledge(long through) => window.Acknowledge(through);

    /// <summary>Waits for <paramref name="startAtUs"/> (the dashboard's clock), runs the load, sends its samples, says done.</summary>
    public async Task RunAsync(long startAtUs, ClockOffset clock, CancellationToken session)
    {
        if (Interlocked.Exchange(ref begun, 1) == 1) return; // a repeated start
        using var load = CancellationTokenSource.CreateLinkedTokenSource(stop.Token, session);
        using var sendable = CancellationTokenSource.CreateLinkedTokenSource(session, drain.Token);
        using var context = new RunContext(new Run { Id = RunId, Kind = kind.Name, ParametersJson = assign.ParametersJson ?? "{}" },
            outgoing.Writer.TryWrite, () => Stop($"the dashboard fell {BufferSamples:N0} samples behind; the load was stopped"), metrics: false);
        context.Parameters = kind.Deserialize(context.ParametersJson);
        string? failure = null;
        var linkEnded = false;
        try
        {
            var offsetUs = (long)Math.Round(clock.OffsetMs * 1000);
            var waitUs = startAtUs - offsetUs - AgentProtocol.NowUs();
            var at = Stopwatch.GetTimestamp() + waitUs * Stopwatch.Frequency / 1_000_000;
            // The timer to within 20 ms, then a precise sleep to the microsecond it is due; the thread that wakes
            // notes the time and starts the load itself, so no scheduling hop lies between the two.
            if (waitUs > 20_000) await Task.Delay(TimeSpan.FromMicroseconds(waitUs - 20_000), load.Token);
            var woke = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
            var execution = Task.Run(() =>
            {
                try
                {
                    PreciseSleep.Until(at, load.Token);
                }
                catch (OperationCanceledException)
                {
                    woke.TrySetCanceled();
                    throw;
                }
                woke.TrySetResult(AgentProtocol.NowUs());
                return executor.ExecuteAsync(context, load.Token);
            });
            var startedUs = await woke.Task;
            // Said before any sample is sent: the dashboard places this shard's samples by it.
            await link.SendAsync(new AgentFrame
            {
                Type = AgentFrameTypes.Started, RunId = RunId, Shard = Shard, Epoch = Epoch,
                DashboardTimeUs = startedUs + offsetUs, RoundTripMs = clock.RoundTripMs,
            }, session);
            var sending = SendAllAsync(sendable.Token);
            try
            {
                await execution;
            }
            catch (OperationCanceledException) when (load.IsCancellationRequested)
            {
                // Stopped: what was measured is sent.
            }
            catch (Exception ex)
            {
                failure = $"its load failed: {ex.Message}";
            }
            outgoing.Writer.TryComplete();
            await sending;
        }
        catch (OperationCanceledException) when (!session.IsCancellationRequested && !drain.IsCancellationRequested)
        {
            // Stopped before its start: done with nothing measured, below.
        }
        catch (Exception ex) when (session.IsCancellationRequested || drain.IsCancellationRequested || ex is System.Net.WebSockets.WebSocketException)
        {
            // The link ended, or the dashboard stopped waiting for this shard: nothing more to say.
            linkEnded = true;
        }
        catch (Exception ex)
        {
            failure = $"its load failed: {ex.Message}"; // said, so the dashboard does not wait for this shard
        }
        finally
        {
            outgoing.Writer.TryComplete();
        }
        try
        {
            if (!linkEnded) await link.SendAsync(new AgentFrame
            {
                Type = AgentFrameTypes.Done, RunId = RunId, Shard = Shard, Epoch = Epoch, Samples = context.Completed, Frames = window.Sent,
                NotesJson = context.Notes.IsEmpty ? null : Json.Serialize(context.Notes), Reason = failure ?? stopReason, Failed = failure is not null,
            }, session);
        }
        catch (Exception ex) when (ex is OperationCanceledException or System.Net.WebSockets.WebSocketException)
        {
            // The link ended: the dashboard counts the shard lost.
        }
        finally
        {
            finished.TrySetResult();
        }
    }

    /// <summary>Sends the samples as they come, in frames of up to <see cref="SampleFrames.MaxCount"/>.</summary>
    async Task SendAllAsync(CancellationToken session)
    {
        var reader = outgoing.Reader;
        var batch = new List<Sample>(SampleFrames.MaxCount);
        while (await reader.WaitToReadAsync(session))
        {
            // A moment for more to come, so a slow load does not send a frame per sample.
            if (reader.Count < SampleFrames.MaxCount) await Task.WhenAny(reader.Completion, Task.Delay(Gather, session));
            while (reader.TryRead(out var sample))
            {
                batch.Add(sample);
                if (batch.Count == SampleFrames.MaxCount) await SendAsync(batch, session);
            }
            if (batch.Count > 0) await SendAsync(batch, session);
        }
    }

    async Task SendAsync(List<Sample> batch, CancellationToken session)
    {
        var sequence = await window.AddAsync(session);
        await link.SendSamplesAsync(SampleFrames.Encode(new SampleBatchHeader(Shard, Epoch, sequence, batch.Count), batch, series), session);
        batch.Clear();
    }
}
