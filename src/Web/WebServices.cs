using BenchDashboard.Web.Demo;

namespace BenchDashboard.Web;

public static class WebServices
{
    public static IServiceCollection AddWebServices(this IServiceCollection services)
    {
        services.AddRazorPages();
        services.AddProblemDetails();
        services.AddOpenApi();
        services.AddOptions<DemoOptions>().BindConfiguration(DemoOptions.Section);
        services.AddHostedService<DemoSeeder>();
        return services;
    }
}
