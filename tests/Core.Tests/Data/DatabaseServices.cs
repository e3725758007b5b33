using BenchDashboard.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>Core's services on one SQLite file, as the dashboard registers them in Production.</summary>
static class DatabaseServices
{
    public static ServiceProvider For(string databasePath)
    {
        var services = new ServiceCollection();
        services.AddSingleton<IHostEnvironment>(new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = Path.GetDirectoryName(databasePath)!, EnvironmentName = "Production" });
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { ["Database:Path"] = databasePath }).Build());
        services.AddLogging();
        services.AddBenchCore();
        return services.BuildServiceProvider();
    }
}
