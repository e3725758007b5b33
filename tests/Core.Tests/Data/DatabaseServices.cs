using BenchDashboard.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>Core's services on one SQLite file, as the dashboard registers them in Production.</summary>
static class DatabaseServices
{
    public static ServiceProvider For(string databasePath) => For(databasePath, new Dictionary<string, string?> { ["Database:Path"] = databasePath });

    /// <summary>On either provider: <see cref="BenchDashboard.TestSupport.TestDatabase.Settings"/>; <paramref name="more"/> adds to the registrations.</summary>
    public static ServiceProvider For(BenchDashboard.TestSupport.TestDatabase database, Action<IServiceCollection>? more = null) => For(database.DatabasePath, database.Settings, more);

    /// <summary>With these settings (Database:Path among them: the content root is its folder).</summary>
    public static ServiceProvider For(Dictionary<string, string?> settings) => For(settings["Database:Path"]!, settings);

    static ServiceProvider For(string databasePath, Dictionary<string, string?> settings, Action<IServiceCollection>? more = null)
    {
        var services = new ServiceCollection();
        services.AddSingleton<IHostEnvironment>(new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = Path.GetDirectoryName(databasePath)!, EnvironmentName = "Production" });
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(settings).Build());
        services.AddLogging();
        services.AddBenchCore();
        more?.Invoke(services);
        return services.BuildServiceProvider();
    }
}
