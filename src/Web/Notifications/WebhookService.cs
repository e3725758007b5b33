using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Stores;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Notifications;

/// <summary>
/// The dashboard's webhook loop: judges runs that have ended (whichever runner ran them: the child, another
/// process, agents) and sends the deliveries that are due, retrying with backoff. Everything it does is in
/// the database, so a restart carries on where it stopped, and no runner ever waits for a receiver.
/// </summary>
public sealed class WebhookService(IServiceScopeFactory scopes, WebhookSender sender, PublicAddress address, IOptions<WebhookOptions> options, ILogger<WebhookService> logger)
    : BackgroundService
{
    const int RunsPerPass = 50, DeliveriesPerPass = 16;
    bool warnedNoKey;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(options.Value.PollIntervalMs));
        try
        {
            do
            {
                try
                {
                    await PassAsync(stoppingToken);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    logger.LogWarning(ex, "Judging runs or sending webhooks failed; trying again shortly");
                }
            }
            while (await timer.WaitForNextTickAsync(stoppingToken));
        }
        catch (OperationCanceledException)
        {
        }
    }

    async Task PassAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var notifications = scope.ServiceProvider.GetRequiredService<RunNotifications>();
        var queued = await notifications.JudgeFinishedRunsAsync(path => address.BaseUrl + path, RunsPerPass, ct);
        if (queued > 0) logger.LogInformation("Queued {Count} webhook delivery(ies)", queued);

        // Taken for longer than an attempt can last, so a dashboard that dies mid-attempt leaves it to the next start.
        var lease = TimeSpan.FromSeconds(options.Value.TimeoutSeconds * 2 + 5);
        var due = await notifications.ClaimDueAsync(DeliveriesPerPass, lease, ct);
        if (due.Count == 0) return;
        if (options.Value.SigningKey is not { Length: > 0 } key)
        {
            const string reason = "Not sent: Webhooks:SigningKey is not set, and deliveries are never sent unsigned.";
            if (!warnedNoKey) logger.LogWarning("Webhook deliveries are due but Webhooks:SigningKey is not set: they are marked failed, not sent unsigned");
            warnedNoKey = true;
            foreach (var delivery in due) await notifications.GiveUpAsync(delivery.Id, reason, ct);
            return;
        }
        // Sent side by side, so one slow receiver does not hold up the rest; recorded one after another on this scope.
        var attempts = await Task.WhenAll(due.Select(d => sender.SendAsync(d, key, ct)));
        for (var i = 0; i < due.Count; i++)
        {
            var (delivery, attempt) = (due[i], attempts[i]);
            var recorded = await notifications.RecordAttemptAsync(delivery, attempt.Delivered, attempt.StatusCode, attempt.Error, ct);
            if (recorded.Status == DeliveryStatus.Failed)
                logger.LogWarning("Webhook delivery {Id} of run {RunId} to {Host} failed after {Attempts} attempt(s): {Error}",
                    delivery.Id, delivery.RunId, new Uri(delivery.Url).Host, recorded.Attempts, attempt.Error);
        }
    }
}
