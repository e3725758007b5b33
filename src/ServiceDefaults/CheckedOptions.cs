using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.ServiceDefaults;

/// <summary>Options bound from their configuration section and checked when the process starts, not when first read.</summary>
public static class CheckedOptions
{
    /// <summary>
    /// Binds <typeparamref name="TOptions"/> to <paramref name="section"/> with its data annotations checked at start.
    /// Once per process, however many of its parts ask: a second binding would apply the section twice.
    /// </summary>
    public static IServiceCollection AddCheckedOptions<TOptions>(this IServiceCollection services, string section) where TOptions : class
    {
        if (services.Any(d => d.ServiceType == typeof(BoundFrom<TOptions>))) return services;
        services.AddSingleton(new BoundFrom<TOptions>(section));
        services.AddOptions<TOptions>().BindConfiguration(section).ValidateDataAnnotations().ValidateOnStart();
        return services;
    }

    /// <summary>Marks <typeparamref name="TOptions"/> as bound in this service collection.</summary>
    sealed record BoundFrom<TOptions>(string Section);
}
