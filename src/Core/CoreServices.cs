using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Stores;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core;

public static class CoreServices
{
    /// <summary>
    /// The kinds of benchmark and what they check parameters against (run limits, the target policy, named
    /// connections, file-system roots), without storage: a runner agent, which never touches the database, takes
    /// these alone.
    /// </summary>
    public static IServiceCollection AddBenchmarkKinds(this IServiceCollection services)
    {
        if (services.Any(d => d.ServiceType == typeof(BenchmarkKinds))) return services;
        services.AddOptions<RunLimits>().BindConfiguration(RunLimits.Section).ValidateDataAnnotations().ValidateOnStart();
        services.AddOptions<TargetOptions>().BindConfiguration(TargetOptions.Section);
        services.AddSingleton<TargetPolicy>();
        services.AddSingleton<NamedConnections>();
        services.AddOptions<FileSystemOptions>().BindConfiguration(FileSystemOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<FileSystemRoots>();
        // The kinds, in the order the pages offer them: one line per kind.
        services.AddBenchmarkKind<HttpKind>();
        services.AddBenchmarkKind<CacheKind>();
        services.AddBenchmarkKind<FileSystemKind>();
        services.AddBenchmarkKind<TableKind>();
        services.AddSingleton<BenchmarkKinds>();
        return services;
    }

    /// <summary>Storage, options and the query/command services that both hosts share.</summary>
    public static IServiceCollection AddBenchCore(this IServiceCollection services)
    {
        services.TryAddSingleton(TimeProvider.System);
        services.AddOptions<RunsOptions>().BindConfiguration(RunsOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        services.AddOptions<DatabaseOptions>().BindConfiguration(DatabaseOptions.Section)
            .Configure<Microsoft.Extensions.Configuration.IConfiguration>((o, configuration) => o.ConnectionString = configuration.GetConnectionString(DatabaseProviders.ConnectionStringName))
            .ValidateDataAnnotations()
            .Validate(o => !o.IsPostgreSql || !string.IsNullOrWhiteSpace(o.ConnectionString),
                "Database:Provider is postgresql but ConnectionStrings:results is not set (e.g. Host=db.example;Database=bench;Username=bench;Password=...).")
            .ValidateOnStart();
        services.AddDbContext<BenchDbContext>((sp, options) => options.UseResultsDatabase(sp));
        services.AddSingleton<StorageReserve>();
        services.AddSingleton<SampleRowsUpgrade>();
        services.AddSingleton(sp => new ParameterDisplay(InstallationKeys.Loader(sp.GetRequiredService<IServiceScopeFactory>())));
        services.AddBenchmarkKinds();
        services.AddScoped<RunQueue>();
        services.AddScoped<RunQueries>();
        services.AddScoped<RunDigests>();
        services.AddScoped<RunRetention>();
        services.AddScoped<RunHistory>();
        services.AddScoped<BenchDashboard.Core.Stores.ComparisonQueries>();
        services.AddScoped<BenchDashboard.Core.Stores.VerdictEvidence>();
        services.AddScoped<BenchmarkStore>();
        services.AddScoped<BenchmarkDefinitions>();
        services.AddScoped<BenchmarkImport>();
        services.AddScoped<BenchDashboard.Core.Stores.AaChecks>();
        services.AddScoped<BenchDashboard.Core.Stores.RunNotifications>();
        services.AddOptions<Notifications.WebhookOptions>().BindConfiguration(Notifications.WebhookOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        return services;
    }

    /// <summary>
    /// The results database as Database:* and ConnectionStrings:results configure it, for any context over it: the
    /// provider, the file's guards (writable, size limit) on SQLite, and failed commands left to whoever handles them.
    /// </summary>
    public static DbContextOptionsBuilder UseResultsDatabase(this DbContextOptionsBuilder options, IServiceProvider sp)
    {
        var database = sp.GetRequiredService<IOptions<DatabaseOptions>>().Value;
        if (database.IsPostgreSql)
            DatabaseProviders.UsePostgreSql(options, database.ConnectionString!);
        else
        {
            var path = database.FullPath(sp.GetRequiredService<IHostEnvironment>());
            DatabaseProviders.UseSqlite(options, path, database.BusyTimeoutSeconds);
            options.AddInterceptors(new DatabaseFilesWritable(path));
            if (database.MaxSizeMiB is { } maxSize) options.AddInterceptors(new DatabaseSizeLimit(maxSize));
        }
        // A failed command is reported once by whoever handles it (StorageFault, QuietLog); EF would log
        // every one at Error, and a loop retrying on a full disk would write hundreds of megabytes of log.
        options.ConfigureWarnings(w => w.Log(
            (RelationalEventId.CommandError, LogLevel.Debug), (RelationalEventId.TransactionError, LogLevel.Debug),
            (RelationalEventId.ConnectionError, LogLevel.Debug), (CoreEventId.QueryIterationFailed, LogLevel.Debug),
            (CoreEventId.SaveChangesFailed, LogLevel.Debug), (RelationalEventId.ExecuteUpdateFailed, LogLevel.Debug),
            (RelationalEventId.ExecuteDeleteFailed, LogLevel.Debug), (RelationalEventId.NonQueryOperationFailed, LogLevel.Debug)));
        return options;
    }
}
