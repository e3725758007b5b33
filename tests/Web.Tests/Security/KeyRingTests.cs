using System.Net;
using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using BenchDashboard.Core.Data;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Pages;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>The data-protection key ring in the results database: encrypted with a configured certificate, and said to be unencrypted outside Development otherwise.</summary>
public class KeyRingTests
{
    const string Password = "key-ring-admin-password";

    /// <summary>A self-signed certificate with its private key, as a .pfx file App Service would load.</summary>
    internal static string Pfx(TempDirectory dir, string password)
    {
        using var rsa = RSA.Create(2048);
        var request = new CertificateRequest("CN=BenchDashboard key ring test", rsa, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddYears(1));
        var path = dir.File("key-ring.pfx");
        File.WriteAllBytes(path, certificate.Export(X509ContentType.Pfx, password));
        return path;
    }

    static DashboardFactory Production(Dictionary<string, string?>? more = null)
    {
        var settings = new Dictionary<string, string?> { ["environment"] = "Production", ["Auth:AdminPassword"] = Password, ["Runner:Process"] = "None" };
        foreach (var (k, v) in more ?? []) settings[k] = v;
        return new DashboardFactory(settings);
    }

    /// <summary>Signs in (the cookie is Secure outside Development: the client speaks https) and answers the signed-in front page.</summary>
    static async Task<(HttpClient Client, string Page)> SignInAsync(DashboardFactory app)
    {
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false, BaseAddress = new Uri("https://localhost") });
        var login = await client.GetStringAsync("/login");
        var signedIn = await client.PostAsync("/login", new FormUrlEncodedContent([new("Password", Password), new("__RequestVerificationToken", FormPost.Token(login))]));
        Assert.Equal(HttpStatusCode.Redirect, signedIn.StatusCode);
        return (client, await client.GetStringAsync("/benchmarks/edit?kind=cache")); // an administrator's page
    }

    static async Task<List<string>> StoredKeysAsync(DashboardFactory app)
    {
        await using var scope = app.Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<BenchDbContext>().KeyRing.Select(k => k.Xml!).ToListAsync();
    }

    [Fact]
    public async Task WithACertificateTheKeyRingIsStoredEncryptedAndSignInsWork()
    {
        using var dir = new TempDirectory();
        await using var app = Production(new() { ["KeyRing:CertificatePath"] = Pfx(dir, "pfx-password"), ["KeyRing:CertificatePassword"] = "pfx-password" });

        var (client, page) = await SignInAsync(app);

        Assert.DoesNotContain("id=\"key-ring-unprotected\"", page);
        var keys = await StoredKeysAsync(app);
        Assert.NotEmpty(keys);
        Assert.All(keys, xml => Assert.Contains("<encryptedSecret", xml));
        Assert.All(keys, xml => Assert.DoesNotContain("<masterKey", xml));
        var health = await client.GetFromJsonAsync<JsonElement>("/healthz");
        Assert.Equal("Healthy", health.GetProperty("checks").GetProperty("keyRing").GetProperty("status").GetString());
        Assert.Contains("CN=BenchDashboard key ring test", health.GetProperty("checks").GetProperty("keyRing").GetProperty("description").GetString());
    }

    [Fact]
    public async Task WithoutOneHealthzAndTheAdministratorsPagesSaySoOutsideDevelopment()
    {
        await using var app = Production();

        var (client, page) = await SignInAsync(app);

        Assert.Contains("id=\"key-ring-unprotected\"", page);
        Assert.Contains(await StoredKeysAsync(app), xml => xml.Contains("<masterKey"));
        var health = await client.GetAsync("/healthz");
        Assert.Equal(HttpStatusCode.OK, health.StatusCode); // degraded, not down: it still serves
        var checks = await health.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal("Degraded", checks.GetProperty("status").GetString());
        Assert.Equal("Degraded", checks.GetProperty("checks").GetProperty("keyRing").GetProperty("status").GetString());
        Assert.Contains("not encrypted", checks.GetProperty("checks").GetProperty("keyRing").GetProperty("description").GetString());
        Assert.DoesNotContain("id=\"key-ring-unprotected\"", await app.CreateClient(new WebApplicationFactoryClientOptions { BaseAddress = new Uri("https://localhost") }).GetStringAsync("/"));
    }

    [Fact]
    public async Task ACertificateThatCannotBeReadStopsTheStartSayingWhy()
    {
        using var dir = new TempDirectory();
        var pfx = Pfx(dir, "right");
        await using var missing = Production(new() { ["KeyRing:CertificatePath"] = dir.File("nowhere.pfx") });
        Assert.Contains("KeyRing: the certificate file", Assert.ThrowsAny<Exception>(() => missing.CreateClient()).ToString());
        await using var wrong = Production(new() { ["KeyRing:CertificatePath"] = pfx, ["KeyRing:CertificatePassword"] = "wrong" });
        Assert.Contains("KeyRing:CertificatePassword", Assert.ThrowsAny<Exception>(() => wrong.CreateClient()).ToString());
    }
}
