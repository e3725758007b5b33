namespace BenchDashboard.Web;

/// <summary>Where the dashboard finds its own files, whichever folder it is started from.</summary>
public static class ContentRoot
{
    /// <summary>
    /// The app's own folder when it was started elsewhere: a published app run as <c>dotnet /site/BenchDashboard.Web.dll</c>
    /// from another folder would otherwise take that folder as its content root and lose appsettings.json and wwwroot.
    /// Null (the framework's choice) when a content root is given, or the working folder has the app's files
    /// (<c>dotnet run --project src/Web</c> runs in the project folder).
    /// </summary>
    public static string? Find(string[] args)
    {
        if (args.Any(a => a.StartsWith("--contentRoot", StringComparison.OrdinalIgnoreCase) || a.StartsWith("/contentRoot", StringComparison.OrdinalIgnoreCase))
            || !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("ASPNETCORE_CONTENTROOT"))
            || !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("DOTNET_CONTENTROOT")))
            return null;
        if (File.Exists(Path.Combine(Directory.GetCurrentDirectory(), "appsettings.json"))) return null;
        return File.Exists(Path.Combine(AppContext.BaseDirectory, "appsettings.json")) ? AppContext.BaseDirectory : null;
    }

    /// <summary>Log levels that do not depend on finding appsettings.json: one line per request would fill a disk under load.</summary>
    public static readonly Dictionary<string, string?> LogDefaults = new()
    {
        ["Logging:LogLevel:Default"] = "Information",
        ["Logging:LogLevel:Microsoft.AspNetCore"] = "Warning",
        ["Logging:LogLevel:Microsoft.EntityFrameworkCore"] = "Warning",
    };
}
