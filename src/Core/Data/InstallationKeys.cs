using System.Security.Cryptography;
using BenchDashboard.Core.Security;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Data;

/// <summary>The installation's own keys in the results database: the same on every dashboard and runner on it.</summary>
public static class InstallationKeys
{
    public const string FingerprintKeyName = "fingerprint";

    /// <summary>
    /// The fingerprint key stored in the database, or the one <paramref name="legacy"/> gives (else a new random
    /// one) stored now. Two storing at once: the name is the primary key, so the second reads the first's.
    /// Stored as is, not protected: the runs' parameters beside it in the same database hold the secrets themselves.
    /// </summary>
    public static byte[] FingerprintKey(BenchDbContext db, Func<byte[]?> legacy)
    {
        if (Stored(db) is { } stored) return stored;
        var key = legacy() ?? RandomNumberGenerator.GetBytes(32);
        db.InstallationKeys.Add(new InstallationKey { Name = FingerprintKeyName, Value = Convert.ToBase64String(key) });
        try
        {
            db.SaveChanges();
            return key;
        }
        catch (DbUpdateException)
        {
            db.ChangeTracker.Clear();
            return Stored(db) ?? throw new InvalidOperationException("The fingerprint key could be neither stored nor read.");
        }
    }

    /// <summary>The fingerprint key read through a scope of its own, for a singleton that reads it at first use.</summary>
    public static Func<byte[]> Loader(IServiceScopeFactory scopes) => () =>
    {
        using var scope = scopes.CreateScope();
        return FingerprintKey(scope.ServiceProvider.GetRequiredService<BenchDbContext>(), () => null);
    };

    static byte[]? Stored(BenchDbContext db) =>
        db.InstallationKeys.AsNoTracking().Where(k => k.Name == FingerprintKeyName).Select(k => k.Value).FirstOrDefault() is { } value
            ? Convert.FromBase64String(value) : null;
}
