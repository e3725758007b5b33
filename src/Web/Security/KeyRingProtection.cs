using System.Security.Cryptography.X509Certificates;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace BenchDashboard.Web.Security;

/// <summary>
/// Section "KeyRing": the certificate that encrypts the data-protection key ring the dashboards keep in the results
/// database. Unencrypted, whoever can read the database (a backup, a read-only PostgreSQL role) can forge an
/// administrator's sign-in cookie. A PFX file (<see cref="CertificatePath"/>, <see cref="CertificatePassword"/>), or
/// a certificate by <see cref="CertificateThumbprint"/> from this machine's store (App Service loads the certificates
/// named in WEBSITE_LOAD_CERTIFICATES into CurrentUser\My on Windows and /var/ssl/private on Linux).
/// </summary>
public sealed class KeyRingOptions
{
    public const string Section = "KeyRing";

    public string? CertificatePath { get; set; }
    public string? CertificatePassword { get; set; }
    public string? CertificateThumbprint { get; set; }

    /// <summary>PFX files of certificates used before: keys they encrypted stay readable after the certificate is replaced.</summary>
    public List<string> PreviousCertificatePaths { get; set; } = [];
}

/// <summary>Whether the key ring is encrypted, and with what; read once at start.</summary>
public sealed class KeyRingProtection(X509Certificate2? certificate, string? problem)
{
    public X509Certificate2? Certificate { get; } = certificate;

    /// <summary>Why the configured certificate could not be used; null when none was configured or it loaded.</summary>
    public string? Problem { get; } = problem;

    /// <summary>
    /// Encrypts new keys with the configured certificate and reads keys any configured certificate encrypted. A
    /// certificate that cannot be loaded stops the start: running on would write keys unencrypted that were meant not to be.
    /// </summary>
    public static void Configure(IServiceCollection services, IConfiguration configuration)
    {
        var options = configuration.GetSection(KeyRingOptions.Section).Get<KeyRingOptions>() ?? new KeyRingOptions();
        var (certificate, problem) = Load(options);
        if (problem is not null) throw new InvalidOperationException($"KeyRing: {problem}");
        services.AddSingleton(new KeyRingProtection(certificate, null));
        if (certificate is null) return;
        var previous = options.PreviousCertificatePaths.Select(path => X509CertificateLoader.LoadPkcs12FromFile(path, options.CertificatePassword)).ToArray();
        services.AddDataProtection().ProtectKeysWithCertificate(certificate).UnprotectKeysWithAnyCertificate([certificate, .. previous]);
    }

    static (X509Certificate2?, string?) Load(KeyRingOptions o)
    {
        try
        {
            if (o.CertificatePath is { Length: > 0 } path)
            {
                if (!File.Exists(path)) return (null, $"the certificate file {path} (KeyRing:CertificatePath) does not exist.");
                var fromFile = X509CertificateLoader.LoadPkcs12FromFile(path, o.CertificatePassword, X509KeyStorageFlags.EphemeralKeySet);
                return fromFile.HasPrivateKey ? (fromFile, null) : (null, $"the certificate in {path} has no private key, so it could not read the keys it encrypts.");
            }
            if (o.CertificateThumbprint is { Length: > 0 } thumbprint)
            {
                var found = FromStore(thumbprint.Trim().ToUpperInvariant());
                return found is null ? (null, $"no certificate with thumbprint {thumbprint} (KeyRing:CertificateThumbprint) and its private key is in CurrentUser\\My, LocalMachine\\My or /var/ssl/private.") : (found, null);
            }
            return (null, null);
        }
        catch (System.Security.Cryptography.CryptographicException ex)
        {
            return (null, $"the certificate could not be read ({ex.Message}): check KeyRing:CertificatePassword.");
        }
    }

    static X509Certificate2? FromStore(string thumbprint)
    {
        foreach (var location in new[] { StoreLocation.CurrentUser, StoreLocation.LocalMachine })
        {
            using var store = new X509Store(StoreName.My, location);
            try
            {
                store.Open(OpenFlags.ReadOnly);
            }
            catch (System.Security.Cryptography.CryptographicException)
            {
                continue;
            }
            if (store.Certificates.Find(X509FindType.FindByThumbprint, thumbprint, validOnly: false).FirstOrDefault(c => c.HasPrivateKey) is { } found) return found;
        }
        // App Service for Linux puts the certificates it was asked to load here, named by thumbprint.
        var file = Path.Combine("/var/ssl/private", thumbprint + ".p12");
        return File.Exists(file) ? X509CertificateLoader.LoadPkcs12FromFile(file, null, X509KeyStorageFlags.EphemeralKeySet) : null;
    }
}

/// <summary>/healthz: the key ring is encrypted, or, outside Development, says that it is not and why that matters.</summary>
public sealed class KeyRingHealthCheck(KeyRingProtection protection, IHostEnvironment environment) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken ct = default) => Task.FromResult(
        protection.Certificate is { } certificate ? HealthCheckResult.Healthy($"Encrypted with the certificate {certificate.Subject} ({certificate.Thumbprint}).")
        : environment.IsDevelopment() ? HealthCheckResult.Healthy("Not encrypted (Development).")
        : HealthCheckResult.Degraded(KeyRingNotice));

    public const string KeyRingNotice =
        "The key ring in the results database is not encrypted: anyone who can read the database (a backup, a read-only role) can forge an administrator's sign-in. Set KeyRing:CertificatePath (a PFX) or KeyRing:CertificateThumbprint.";
}
