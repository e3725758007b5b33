using System.Data.Common;
using System.Security.Cryptography;
using System.Xml.Linq;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Security;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.AspNetCore.DataProtection.Repositories;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Security;

/// <summary>
/// The keys every dashboard on one database must hold alike, kept in that database: the data-protection key ring
/// (sign-in cookies, anti-forgery tokens) and the fingerprint key (<see cref="ParameterDisplay"/>). Before they
/// lived there, the ring was a folder of this machine's (ASP.NET Core's default) and the fingerprint key a file
/// beside the SQLite database; at each start the dashboard copies that ring's keys in (so cookies signed before the
/// upgrade still read) and, while the database has no fingerprint key, moves this machine's in, so fingerprints of
/// stored runs stay as they were.
/// </summary>
public sealed class SharedKeys : IMigratedDatabaseStep
{
    /// <summary>The session lock dashboards take turns under on PostgreSQL ("BenchKey"), so two starting together make one key ring.</summary>
    const long LockKey = 0x42656E63684B6579;

    /// <summary>The dashboard's start, after migrating (<see cref="DatabaseMigrator.MigrateDatabaseAsync"/>).</summary>
    public async Task RunAsync(IServiceProvider services, CancellationToken ct)
    {
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var logger = scope.ServiceProvider.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(SharedKeys));
        var database = scope.ServiceProvider.GetRequiredService<IOptions<DatabaseOptions>>().Value;
        var legacyFingerprint = database.FullPath(scope.ServiceProvider.GetRequiredService<IHostEnvironment>()) + ".fingerprint-key";
        var protector = scope.ServiceProvider.GetRequiredService<IDataProtectionProvider>().CreateProtector(ParameterDisplay.Purpose);

        await db.Database.OpenConnectionAsync(ct);
        var locked = db.IsPostgreSql();
        if (locked) await db.Database.ExecuteSqlRawAsync($"SELECT pg_advisory_lock({LockKey})", ct);
        try
        {
            var imported = await ImportKeyRingAsync(db, LegacyKeyRing(database), ct);
            if (imported > 0) logger.LogInformation("Copied {Count} data-protection key(s) of this machine's key ring into the results database", imported);
            // Loads the ring, making its first key if it has none: under the lock, so a second dashboard starting
            // now finds that key rather than making one the first has not seen.
            protector.Protect([0]);
            InstallationKeys.FingerprintKey(db, () => LegacyFingerprintKey(protector, legacyFingerprint, logger));
        }
        finally
        {
            if (locked) await db.Database.ExecuteSqlRawAsync($"SELECT pg_advisory_unlock({LockKey})", CancellationToken.None);
            await db.Database.CloseConnectionAsync();
        }
    }

    /// <summary>The key the file beside the database held, protected by the key ring this machine had (copied in by now); null if none can be read.</summary>
    static byte[]? LegacyFingerprintKey(IDataProtector protector, string path, ILogger logger)
    {
        if (!File.Exists(path)) return null;
        try
        {
            var key = Convert.FromBase64String(protector.Unprotect(File.ReadAllText(path)));
            logger.LogInformation("The fingerprint key {Path} is now kept in the results database", path);
            return key;
        }
        catch (Exception ex) when (ex is CryptographicException or FormatException or IOException or UnauthorizedAccessException)
        {
            logger.LogWarning("The fingerprint key {Path} cannot be read ({Reason}); a new one is made, so fingerprints change.", path, ex.Message);
            return null;
        }
    }

    /// <summary>
    /// Database:LegacyKeyRingPath, else where ASP.NET Core kept the ring by default: %HOME%/ASP.NET/DataProtection-Keys
    /// on App Service, else the user's profile (~/.aspnet/DataProtection-Keys on Linux).
    /// </summary>
    static DirectoryInfo? LegacyKeyRing(DatabaseOptions database) =>
        !string.IsNullOrWhiteSpace(database.LegacyKeyRingPath) ? new DirectoryInfo(database.LegacyKeyRingPath)
        : !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("WEBSITE_INSTANCE_ID")) && Environment.GetEnvironmentVariable("HOME") is { Length: > 0 } home
            ? new DirectoryInfo(Path.Combine(home, "ASP.NET", "DataProtection-Keys"))
        : FileSystemXmlRepository.DefaultKeyStorageDirectory;

    /// <summary>
    /// Each element of the folder's ring (key-{id}.xml, revocation-….xml) not in the database yet, under the name
    /// the file-system ring gave it (the database's ring names its elements the same way).
    /// </summary>
    static async Task<int> ImportKeyRingAsync(BenchDbContext db, DirectoryInfo? folder, CancellationToken ct)
    {
        if (folder is null || !folder.Exists) return 0;
        var known = (await db.KeyRing.Select(k => k.FriendlyName).ToListAsync(ct)).ToHashSet();
        var added = 0;
        foreach (var file in folder.EnumerateFiles("*.xml"))
        {
            var name = Path.GetFileNameWithoutExtension(file.Name);
            if (known.Contains(name)) continue;
            XElement element;
            try
            {
                element = XElement.Load(file.FullName);
            }
            catch (Exception ex) when (ex is System.Xml.XmlException or IOException or UnauthorizedAccessException)
            {
                continue; // not an element the old ring could have read either
            }
            db.KeyRing.Add(new KeyRingElement { FriendlyName = name, Xml = element.ToString(SaveOptions.DisableFormatting) });
            added++;
        }
        await db.SaveChangesAsync(ct);
        return added;
    }
}
