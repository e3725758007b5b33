using BenchDashboard.Core.Data;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Scheduling;

/// <summary>
/// Who this runner is to the runs it owns: "{machine}/{slot}", the same after a restart and different for two
/// runners alive at once on one database. The slot is the lowest n for which this process holds an exclusive
/// lock on "{database}.runner{n}.lock"; the operating system releases the lock when a process dies, however
/// it dies, so a runner that finds a run 'running' under its own name knows its owner is gone and can
/// recover it at once instead of waiting for the heartbeat to go stale.
/// </summary>
public sealed class RunnerIdentity : IDisposable
{
    const int MaxSlots = 64;
    readonly FileStream? lockFile;

    public RunnerIdentity(IOptions<DatabaseOptions> database, IHostEnvironment environment)
    {
        var prefix = database.Value.FullPath(environment) + ".runner";
        for (var slot = 1; slot <= MaxSlots; slot++)
        {
            try
            {
                // FileShare.None is an exclusive flock on Unix: held until this process closes it or dies.
                lockFile = new FileStream($"{prefix}{slot}.lock", FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
                Name = $"{Environment.MachineName}/{slot}";
                return;
            }
            catch (IOException)
            {
                // Another live runner holds this slot.
            }
        }
        // More runners than slots on one database: fall back to a name only this process has.
        Name = $"{Environment.MachineName}/pid{Environment.ProcessId}";
    }

    public string Name { get; }

    public void Dispose() => lockFile?.Dispose();
}
