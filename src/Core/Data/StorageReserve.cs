using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Room kept for the last word on a full disk. SQLite needs free space for any write, even a status update
/// (its WAL grows first), so on a disk filled by a run's samples the run could not even be marked failed. A
/// file of <see cref="DatabaseOptions.ReserveMiB"/> real (not sparse) bytes is kept beside the database;
/// when the disk is full it is deleted so that the run's outcome can be stored, and made again once there is
/// room.
/// </summary>
public sealed class StorageReserve(IOptions<DatabaseOptions> options, IHostEnvironment environment, ILogger<StorageReserve> logger)
{
    readonly Lock gate = new();

    string Path => options.Value.FullPath(environment) + ".reserve";

    /// <summary>Makes the reserve if it is missing; quietly leaves it missing when there is no room.</summary>
    public void Ensure()
    {
        if (options.Value.ReserveMiB == 0) return;
        lock (gate)
        {
            if (File.Exists(Path) && new FileInfo(Path).Length == options.Value.ReserveMiB * 1048576L) return;
            try
            {
                using var file = new FileStream(Path, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20);
                var zeros = new byte[1 << 20];
                for (var i = 0; i < options.Value.ReserveMiB; i++) file.Write(zeros); // written, so the space is really taken
                file.Flush(flushToDisk: true);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                try { File.Delete(Path); } catch (IOException) { }
                logger.LogWarning("No room to keep {MiB} MiB in reserve beside the database ({Reason}): a full disk may keep a run from recording its end.", options.Value.ReserveMiB, ex.Message);
            }
        }
    }

    /// <summary>Frees the reserve; true when it was there to free.</summary>
    public bool Release()
    {
        lock (gate)
        {
            if (!File.Exists(Path)) return false;
            File.Delete(Path);
            logger.LogWarning("The disk of the results database is full: released the {MiB} MiB reserve to record the outcome.", options.Value.ReserveMiB);
            return true;
        }
    }
}
