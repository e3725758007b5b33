using BenchDashboard.ServiceDefaults;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Processing;

public static class ProcessingServices
{
    /// <summary>Section "Runner", bound and checked once for whichever parts of this process read it.</summary>
    public static IServiceCollection AddRunnerOptions(this IServiceCollection services) =>
        services.AddCheckedOptions<RunnerOptions>(RunnerOptions.Section);
}
