using BenchDashboard.Core.Data;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Pages.Shared;

/// <summary>
/// Whether this dashboard keeps its history where App Service throws it away: a SQLite file on the instance's temp
/// disk (where <see cref="DatabaseOptions.ResolvePath"/> puts it there by default), which a restart, a deployment, a
/// scale-out or a slot swap loses. The layout then says so on every page. Read from configuration, where App
/// Service's WEBSITE_INSTANCE_ID and WEBSITE_SITE_NAME arrive as environment variables.
/// </summary>
public sealed class HistoryOnTempDisk(IConfiguration configuration, IOptions<DatabaseOptions> database, IHostEnvironment environment)
{
    public bool Applies { get; } =
        !database.Value.IsPostgreSql
        && (!string.IsNullOrEmpty(configuration["WEBSITE_INSTANCE_ID"]) || !string.IsNullOrEmpty(configuration["WEBSITE_SITE_NAME"]))
        && Path.GetFullPath(database.Value.ResolvePath(environment.ContentRootPath, name => configuration[name]))
            .StartsWith(Path.GetFullPath(Path.GetTempPath()), StringComparison.Ordinal);
}
