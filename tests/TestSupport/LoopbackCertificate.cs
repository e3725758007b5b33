using System.Net;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace BenchDashboard.TestSupport;

/// <summary>
/// A self-signed certificate for 127.0.0.1, made for one test server (no machine trusts it), and the certificate
/// check that trusts only it.
/// </summary>
public static class LoopbackCertificate
{
    /// <summary>With its private key, for the server; <c>GetRSAPrivateKey()</c> exports it for one that reads PEM files.</summary>
    public static X509Certificate2 Create()
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=127.0.0.1", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        return request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
    }

    public static RemoteCertificateValidationCallback TrustOnly(X509Certificate2 certificate) =>
        (_, presented, _, _) => presented is not null && presented.GetCertHashString(HashAlgorithmName.SHA256) == certificate.GetCertHashString(HashAlgorithmName.SHA256);
}
