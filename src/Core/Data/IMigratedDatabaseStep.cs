namespace BenchDashboard.Core.Data;

/// <summary>Work a process does at its start once the results database has this build's schema.</summary>
public interface IMigratedDatabaseStep
{
    Task RunAsync(IServiceProvider services, CancellationToken ct);
}
