using BenchDashboard.Core.Security;

namespace BenchDashboard.Web.Notifications;

public static class WebhookServices
{
    /// <summary>Webhooks of benchmarks: the sender's HTTP client, the dashboard's public address and the delivery loop.</summary>
    public static IServiceCollection AddWebhooks(this IServiceCollection services)
    {
        // No request logging: a receiver's token is often in the URL's path, which only administrators may see.
        // No client-wide timeout either: each attempt has its own (Webhooks:TimeoutSeconds).
        services.AddHttpClient(WebhookSender.ClientName, client => client.Timeout = Timeout.InfiniteTimeSpan)
            .ConfigurePrimaryHttpMessageHandler(sp => WebhookSender.Handler(sp.GetRequiredService<TargetPolicy>()))
            .RemoveAllLoggers();
        services.AddSingleton<WebhookSender>();
        services.AddSingleton<PublicAddress>();
        services.AddHostedService<WebhookService>();
        return services;
    }

    /// <summary>Notes the address administrators reach the dashboard by (<see cref="PublicAddress"/>); after the administrator gate.</summary>
    public static IApplicationBuilder UsePublicAddress(this IApplicationBuilder app)
    {
        var address = app.ApplicationServices.GetRequiredService<PublicAddress>();
        return app.Use((context, next) =>
        {
            address.Observe(context);
            return next(context);
        });
    }
}
