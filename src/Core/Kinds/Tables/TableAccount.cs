using System.Net;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.Tables;

/// <summary>How a Table connection signs its requests.</summary>
public enum TableSignIn
{
    /// <summary>AccountName and AccountKey (SharedKeyLite).</summary>
    SharedKey,

    /// <summary>A shared access signature appended to every request.</summary>
    Sas,

    /// <summary>Microsoft Entra: Azure.Identity's DefaultAzureCredential (managed identity on App Service, developer sign-in elsewhere).</summary>
    DefaultAzureCredential,

    /// <summary>Microsoft Entra: a managed identity, system-assigned or (with ClientId) user-assigned.</summary>
    ManagedIdentity,
}

/// <summary>
/// A Table Storage connection string, parsed: where requests go and how they are signed. Host-style for Azure
/// (https://acct.table.core.windows.net) and path-style for Azurite (http://127.0.0.1:10002/devstoreaccount1).
/// Besides the forms Azure's tools write, a connection may name a Microsoft Entra credential instead of a
/// secret: <c>TableEndpoint=https://acct.table.core.windows.net;Credential=ManagedIdentity[;ClientId=…]</c> or
/// <c>Credential=DefaultAzureCredential</c>. Parsed in Core so the form and the API refuse a bad connection
/// (a token over http://, say) as a field error before a run is queued.
/// </summary>
public sealed class TableAccount
{
    /// <summary>Azurite's well-known development account (public, documented by Microsoft).</summary>
    public const string DevelopmentAccountName = "devstoreaccount1";
    const string DevelopmentAccountKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    public static readonly Uri DevelopmentEndpoint = new("http://127.0.0.1:10002/devstoreaccount1");

    TableAccount(Uri endpoint, string? accountName, TableSignIn signIn, string? secret, string? clientId, bool isDevelopmentStorage)
    {
        Endpoint = endpoint;
        AccountName = accountName;
        SignIn = signIn;
        Secret = secret;
        ClientId = clientId;
        IsDevelopmentStorage = isDevelopmentStorage;
    }

    /// <summary>The table service root, without a trailing slash.</summary>
    public Uri Endpoint { get; }
    public string? AccountName { get; }
    public TableSignIn SignIn { get; }

    /// <summary>The base64 account key (<see cref="TableSignIn.SharedKey"/>) or the SAS token without '?' (<see cref="TableSignIn.Sas"/>).</summary>
    public string? Secret { get; }

    /// <summary>A user-assigned managed identity's client id; null for the system-assigned one (or DefaultAzureCredential's choice).</summary>
    public string? ClientId { get; }

    /// <summary><c>UseDevelopmentStorage=true</c>: the emulator on its default port.</summary>
    public bool IsDevelopmentStorage { get; }

    public bool UsesToken => SignIn is TableSignIn.DefaultAzureCredential or TableSignIn.ManagedIdentity;

    /// <summary>An emulator rather than the service: loopback, or the development account.</summary>
    public bool IsEmulator => IsDevelopmentStorage || AccountName == DevelopmentAccountName
        || Endpoint.IsLoopback || (IPAddress.TryParse(Endpoint.Host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address));

    /// <summary>The endpoint and how it is authorised, never the secret: "https://acct.table.core.windows.net (shared key)".</summary>
    public string Describe() => $"{Endpoint.AbsoluteUri.TrimEnd('/')} ({SignIn switch
    {
        TableSignIn.SharedKey => "shared key",
        TableSignIn.Sas => "SAS",
        TableSignIn.DefaultAzureCredential => "Microsoft Entra, DefaultAzureCredential",
        _ => ClientId is null ? "Microsoft Entra, system-assigned managed identity" : $"Microsoft Entra, managed identity {ClientId}",
    }})";

    /// <summary>Why a configured connection string cannot be used for Table runs, or null; never quotes the string.</summary>
    public static string? Problem(string? connectionString)
    {
        if (string.IsNullOrWhiteSpace(connectionString)) return null; // "not configured" is reported on its own
        try
        {
            Parse(connectionString);
            return null;
        }
        catch (FormatException ex)
        {
            return ex.Message;
        }
    }

    /// <summary>
    /// Parses <c>UseDevelopmentStorage=true</c>;
    /// <c>DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;EndpointSuffix=core.windows.net</c>;
    /// either with an explicit <c>TableEndpoint=…</c>; <c>TableEndpoint=…;SharedAccessSignature=…</c>; or an
    /// endpoint with <c>Credential=DefaultAzureCredential|ManagedIdentity</c> (and <c>ClientId=…</c>).
    /// The message of the exception never quotes the string (it may hold a key).
    /// </summary>
    public static TableAccount Parse(string connectionString)
    {
        var settings = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var part in connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var equals = part.IndexOf('=');
            if (equals <= 0) throw new FormatException("Each part of a Table Storage connection string is Name=value; one part is not.");
            settings[part[..equals].Trim()] = part[(equals + 1)..].Trim(); // a base64 key ends in '='
        }

        if (settings.TryGetValue("UseDevelopmentStorage", out var development) && development.Equals("true", StringComparison.OrdinalIgnoreCase))
        {
            var endpoint = DevelopmentEndpoint;
            // As the storage SDKs read it: the emulator's host; the table port stays 10002.
            if (settings.TryGetValue("DevelopmentStorageProxyUri", out var proxy))
                endpoint = Uri.TryCreate(proxy, UriKind.Absolute, out var host)
                    ? new Uri($"{host.Scheme}://{host.Host}:10002/{DevelopmentAccountName}")
                    : throw new FormatException("DevelopmentStorageProxyUri must be an absolute URL.");
            return new TableAccount(endpoint, DevelopmentAccountName, TableSignIn.SharedKey, DevelopmentAccountKey, null, isDevelopmentStorage: true);
        }

        settings.TryGetValue("AccountName", out var accountName);
        settings.TryGetValue("AccountKey", out var key);
        if (key is not null && !IsBase64(key)) throw new FormatException("AccountKey is not base64: copy it again from the storage account's access keys.");
        settings.TryGetValue("SharedAccessSignature", out var sas);
        sas = sas?.TrimStart('?');
        var tableEndpoint = TableEndpoint(settings, accountName);

        if (settings.TryGetValue("Credential", out var credential))
        {
            var signIn = credential.ToLowerInvariant() switch
            {
                "defaultazurecredential" => TableSignIn.DefaultAzureCredential,
                "managedidentity" => TableSignIn.ManagedIdentity,
                _ => throw new FormatException("Credential is DefaultAzureCredential or ManagedIdentity (Microsoft Entra sign-in)."),
            };
            if (key is not null || !string.IsNullOrEmpty(sas))
                throw new FormatException("A connection signs in with Credential or with AccountKey/SharedAccessSignature, not both.");
            // The service refuses bearer tokens over http, and a token sent in the clear could be replayed.
            if (tableEndpoint.Scheme != Uri.UriSchemeHttps)
                throw new FormatException("Credential (Microsoft Entra sign-in) needs an https:// Table endpoint: a token is never sent over http.");
            settings.TryGetValue("ClientId", out var clientId);
            if (clientId is not null && !Guid.TryParse(clientId, out _)) throw new FormatException("ClientId is a managed identity's client id (a GUID).");
            return new TableAccount(tableEndpoint, accountName, signIn, null, clientId, isDevelopmentStorage: false);
        }
        if (key is not null)
        {
            if (string.IsNullOrEmpty(accountName)) throw new FormatException("AccountKey needs AccountName: the signature names the account.");
            return new TableAccount(tableEndpoint, accountName, TableSignIn.SharedKey, key, null, isDevelopmentStorage: false);
        }
        if (!string.IsNullOrEmpty(sas)) return new TableAccount(tableEndpoint, accountName, TableSignIn.Sas, sas, null, isDevelopmentStorage: false);
        throw new FormatException("The connection string has neither AccountKey nor SharedAccessSignature nor Credential.");
    }

    static Uri TableEndpoint(Dictionary<string, string> settings, string? accountName)
    {
        if (settings.TryGetValue("TableEndpoint", out var explicitEndpoint))
        {
            if (!Uri.TryCreate(explicitEndpoint, UriKind.Absolute, out var parsed) || parsed.Scheme is not ("http" or "https"))
                throw new FormatException("TableEndpoint must be an absolute http:// or https:// URL.");
            return new Uri(parsed.GetLeftPart(UriPartial.Path).TrimEnd('/'));
        }
        if (string.IsNullOrEmpty(accountName))
            throw new FormatException("Set AccountName (with AccountKey or Credential) or TableEndpoint (with SharedAccessSignature or Credential).");
        var protocol = settings.GetValueOrDefault("DefaultEndpointsProtocol", "https");
        if (protocol is not ("http" or "https")) throw new FormatException("DefaultEndpointsProtocol must be http or https.");
        var suffix = settings.GetValueOrDefault("EndpointSuffix", "core.windows.net");
        return new Uri($"{protocol}://{accountName}.table.{suffix}");
    }

    static bool IsBase64(string text) => Convert.TryFromBase64String(text, new byte[text.Length], out _);
}
