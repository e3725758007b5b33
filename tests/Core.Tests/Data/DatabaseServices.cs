using BenchDashboard.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>Core's services on one SQLite file, as the dashboard registers them in Production.</summary>
static class DatabaseServices
{
    public static ServiceProvider For(string databasePath) => For(new Dictionary<string, string?> { ["Database:Path"] = databasePath });

    /// <summary>With these settings (Database:Path among them: the content root is its folder).</summary>
    public static ServiceProvider For(Dictionary<string, string?> settings)
    {
        var services = new ServiceCollection();
        services.AddSingleton<IHostEnvironment>(new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = Path.GetDirectoryName(settings["Database:Path"])!, EnvironmentName = "Production" });
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(settings).Build());
        services.AddLogging();
        services.AddBenchCore();
        return services.BuildServiceProvider();
    }
}
