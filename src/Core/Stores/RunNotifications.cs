using BenchDashboard.Core.Data;
using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics.Changes;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Stores;

/// <summary>
/// Turns finished runs into webhook deliveries and keeps the deliveries' state. Every finished run is judged
/// once (<see cref="Run.WebhooksCheckedUtcMs"/>, set by a conditional update, so two dashboards on one database
/// never queue the same run twice); a run that notifies gets one <see cref="WebhookDelivery"/> per URL of its
/// benchmark, stored in the same transaction.
/// </summary>
public sealed class RunNotifications(BenchDbContext db, RunHistory history, IOptions<RunsOptions> runsOptions, IOptions<WebhookOptions> options, TimeProvider time)
{
    /// <summary>
    /// A completed run is judged once the runner has stored its summary (judging earlier would read its samples
    /// a second time while the runner builds its digest), or this long after it ended if the runner never did.
    /// </summary>
    public static readonly TimeSpan SummaryWait = TimeSpan.FromSeconds(60);

    long Now => time.GetUtcNow().ToUnixTimeMilliseconds();

    /// <summary>Judges up to <paramref name="max"/> finished runs; returns how many deliveries were queued.</summary>
    /// <param name="link">The dashboard's absolute address of a path ("/runs/12"), for the payload's links.</param>
    public async Task<int> JudgeFinishedRunsAsync(Func<string, string> link, int max, CancellationToken ct)
    {
        var now = Now;
        // Runs with nobody to notify are marked in one statement, without reading anything of them.
        await Unjudged().Where(r => r.Benchmark == null || r.Benchmark.WebhookUrls.Count == 0)
            .ExecuteUpdateAsync(set => set.SetProperty(r => r.WebhooksCheckedUtcMs, now), ct);
        var summaryDue = now - (long)SummaryWait.TotalMilliseconds;
        var runs = await Unjudged().Include(r => r.Benchmark).AsNoTracking()
            .Where(r => r.Status != RunStatus.Completed || r.SummaryJson != null || r.EndedUtcMs < summaryDue)
            .OrderBy(r => r.Id).Take(max).ToListAsync(ct);
        var queued = 0;
        foreach (var run in runs)
        {
            var deliveries = await DeliveriesForAsync(run, link, ct);
            await using var transaction = await db.Database.BeginTransactionAsync(ct);
            var claimed = await db.Runs.Where(r => r.Id == run.Id && r.WebhooksCheckedUtcMs == null)
                .ExecuteUpdateAsync(set => set.SetProperty(r => r.WebhooksCheckedUtcMs, now), ct);
            if (claimed == 1 && deliveries.Count > 0)
            {
                db.WebhookDeliveries.AddRange(deliveries);
                await db.SaveChangesAsync(ct);
                queued += deliveries.Count;
            }
            await transaction.CommitAsync(ct);
            db.ChangeTracker.Clear();
        }
        return queued;
    }

    IQueryable<Run> Unjudged() =>
        db.Runs.Where(r => r.WebhooksCheckedUtcMs == null && r.Status != RunStatus.Queued && r.Status != RunStatus.Running);

    async Task<List<WebhookDelivery>> DeliveriesForAsync(Run run, Func<string, string> link, CancellationToken ct)
    {
        if (run.Benchmark is not { WebhookUrls.Count: > 0 } benchmark || run.Status == RunStatus.Cancelled) return [];
        // Only a completed run is judged on its figures; a failed one is failed whatever they are.
        var point = run.Status == RunStatus.Completed ? await history.PointAsync(run, ct) : null;
        var summary = point?.Summary ?? (run.SummaryJson is { } json ? Json.Deserialize<RunSummary>(json) : null);
        var outcome = RunOutcome.Judge(run, summary, runsOptions.Value, point?.Thresholds, point?.History);
        if (WebhookEvent.Of(run, outcome, point?.History) is not { } name) return [];
        var changes = name == WebhookEvent.Regression
            ? point!.History!.Confirmed.Where(c => c.Evidence.Call == ChangeDirection.Regression).Select(c => Change(c, link)).ToList()
            : null;
        var payload = new WebhookPayload(
            name, run.Id, new WebhookBenchmark(benchmark.Id, benchmark.Name, benchmark.Kind), run.Status.ToApiName(), outcome.Label, outcome.Reason,
            summary?.MedianNs / 1e6, summary?.P99Ns / 1e6, summary is { Count: > 0 } ? summary.ErrorPercent : null, run.EndedUtcMs, link($"/runs/{run.Id}"), changes);
        var body = Json.Serialize(payload);
        var now = Now;
        return benchmark.WebhookUrls.Select(url => new WebhookDelivery
        {
            RunId = run.Id, Url = url, Event = name, PayloadJson = body, Status = DeliveryStatus.Pending, CreatedUtcMs = now, NextAttemptUtcMs = now,
        }).ToList();
    }

    static WebhookChange Change(ConfirmedChange c, Func<string, string> link) => new(
        c.Evidence.Call == ChangeDirection.Regression ? "regression" : "improvement", c.SinceRunId, c.ConfirmedByRunId, ChangeWords.Confirmed(c),
        c.Evidence.ConfidenceLevel, c.Evidence.Margin,
        c.Evidence.Metrics.Select(m => new WebhookMetric(m.Metric, m.BeforeNs / 1e6, m.AfterNs / 1e6, m.Change, m.Lower, m.Upper, Json.Serialize(m.Call).Trim('"'))).ToList(),
        c.BeforeRunIds, c.AfterRunIds, link(ChangeLinks.Compare(c)));

    /// <summary>
    /// Up to <paramref name="max"/> deliveries due now, each taken for <paramref name="lease"/>: its next attempt
    /// moves that far ahead, so another sender (or this one after a crash) takes it over only when that passes.
    /// </summary>
    public async Task<List<WebhookDelivery>> ClaimDueAsync(int max, TimeSpan lease, CancellationToken ct)
    {
        var now = Now;
        var due = await db.WebhookDeliveries.AsNoTracking()
            .Where(d => d.Status == DeliveryStatus.Pending && d.NextAttemptUtcMs <= now)
            .OrderBy(d => d.NextAttemptUtcMs).Take(max).ToListAsync(ct);
        var claimed = new List<WebhookDelivery>();
        var until = now + (long)lease.TotalMilliseconds;
        foreach (var delivery in due)
        {
            var taken = await db.WebhookDeliveries.Where(d => d.Id == delivery.Id && d.Status == DeliveryStatus.Pending && d.NextAttemptUtcMs == delivery.NextAttemptUtcMs)
                .ExecuteUpdateAsync(set => set.SetProperty(d => d.NextAttemptUtcMs, until), ct);
            if (taken == 1) claimed.Add(delivery);
            delivery.NextAttemptUtcMs = until; // the lease this sender holds: its attempt is recorded only while it still does
        }
        return claimed;
    }

    /// <summary>
    /// Records an attempt: delivered on a 2xx, else retried after the backoff or, at the last attempt, failed. Only
    /// while the caller still holds the lease <see cref="ClaimDueAsync"/> gave it: a sender whose lease ran out (and
    /// another took the delivery over) must not overwrite the other's result.
    /// </summary>
    public async Task<WebhookDelivery> RecordAttemptAsync(WebhookDelivery delivery, bool delivered, int? statusCode, string? error, CancellationToken ct)
    {
        var now = Now;
        var attempts = delivery.Attempts + 1;
        var status = delivered ? DeliveryStatus.Delivered : attempts >= options.Value.MaxAttempts ? DeliveryStatus.Failed : DeliveryStatus.Pending;
        var next = status == DeliveryStatus.Pending ? now + (long)options.Value.RetryDelay(attempts).TotalMilliseconds : now;
        var held = await db.WebhookDeliveries.Where(d => d.Id == delivery.Id && d.Status == DeliveryStatus.Pending && d.NextAttemptUtcMs == delivery.NextAttemptUtcMs).ExecuteUpdateAsync(set => set
            .SetProperty(d => d.Attempts, attempts).SetProperty(d => d.Status, status).SetProperty(d => d.NextAttemptUtcMs, next)
            .SetProperty(d => d.LastAttemptUtcMs, now).SetProperty(d => d.LastStatusCode, statusCode).SetProperty(d => d.LastError, error), ct);
        if (held == 0) return delivery;
        delivery.Attempts = attempts;
        delivery.Status = status;
        delivery.NextAttemptUtcMs = next;
        delivery.LastAttemptUtcMs = now;
        delivery.LastStatusCode = statusCode;
        delivery.LastError = error;
        return delivery;
    }

    /// <summary>Marks a delivery failed without an attempt: it cannot be sent at all (no signing key).</summary>
    public Task GiveUpAsync(long deliveryId, string reason, CancellationToken ct) =>
        db.WebhookDeliveries.Where(d => d.Id == deliveryId && d.Status == DeliveryStatus.Pending)
            .ExecuteUpdateAsync(set => set.SetProperty(d => d.Status, DeliveryStatus.Failed).SetProperty(d => d.LastError, reason), ct);

    /// <summary>A run's deliveries for its page, oldest first.</summary>
    public Task<List<WebhookDelivery>> ForRunAsync(long runId, CancellationToken ct) =>
        db.WebhookDeliveries.AsNoTracking().Where(d => d.RunId == runId).OrderBy(d => d.Id).ToListAsync(ct);
}
