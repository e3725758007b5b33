using System.Net;

namespace BenchDashboard.Runner.Tables.Protocol;

/// <summary>
/// Where a Table Storage connection string points and how to sign for it. Requests go to
/// <see cref="Endpoint"/> + "/Tables", "/{table}", "/$batch": host-style for Azure
/// (https://acct.table.core.windows.net) and path-style for Azurite (http://127.0.0.1:10002/devstoreaccount1).
/// </summary>
public sealed class TableAccount
{
    /// <summary>Azurite's well-known development account (public, documented by Microsoft).</summary>
    public const string DevelopmentAccountName = "devstoreaccount1";
    const string DevelopmentAccountKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    public static readonly Uri DevelopmentEndpoint = new("http://127.0.0.1:10002/devstoreaccount1");

    TableAccount(Uri endpoint, string? accountName, byte[]? key, string? sharedAccessSignature, bool isDevelopmentStorage)
    {
        Endpoint = endpoint;
        AccountName = accountName;
        Key = key;
        SharedAccessSignature = sharedAccessSignature;
        IsDevelopmentStorage = isDevelopmentStorage;
    }

    /// <summary>The table service root.</summary>
    public Uri Endpoint { get; }

    /// <summary>The root as a prefix for paths ("https://acct.table.core.windows.net", no trailing slash).</summary>
    public string BaseAddress => Endpoint.AbsoluteUri.TrimEnd('/');
    public string? AccountName { get; }

    /// <summary>The account key for SharedKeyLite signing; null when a SAS authorises instead.</summary>
    internal byte[]? Key { get; }

    /// <summary>A SAS token (query string without '?'), appended to every request.</summary>
    internal string? SharedAccessSignature { get; }

    /// <summary><c>UseDevelopmentStorage=true</c>: the emulator on its default port.</summary>
    public bool IsDevelopmentStorage { get; }

    /// <summary>An emulator rather than the service: loopback, or the development account.</summary>
    public bool IsEmulator => IsDevelopmentStorage || AccountName == DevelopmentAccountName
        || Endpoint.IsLoopback || (IPAddress.TryParse(Endpoint.Host, out var address) && IPAddress.IsLoopback(address));

    /// <summary>The endpoint and how it is authorised, never the secret: "https://acct.table.core.windows.net (shared key)".</summary>
    public string Describe() => $"{BaseAddress} ({(Key is not null ? "shared key" : "SAS")})";

    /// <summary>
    /// Parses the forms Azure's tools write: <c>UseDevelopmentStorage=true</c>;
    /// <c>DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;EndpointSuffix=core.windows.net</c>;
    /// either with an explicit <c>TableEndpoint=…</c>; or <c>TableEndpoint=…;SharedAccessSignature=…</c>.
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
            return new TableAccount(endpoint, DevelopmentAccountName, Convert.FromBase64String(DevelopmentAccountKey), null, isDevelopmentStorage: true);
        }

        settings.TryGetValue("AccountName", out var accountName);
        byte[]? key = null;
        if (settings.TryGetValue("AccountKey", out var keyText))
        {
            try
            {
                key = Convert.FromBase64String(keyText);
            }
            catch (FormatException)
            {
                throw new FormatException("AccountKey is not base64: copy it again from the storage account's access keys.");
            }
        }
        settings.TryGetValue("SharedAccessSignature", out var sas);
        sas = sas?.TrimStart('?');

        Uri tableEndpoint;
        if (settings.TryGetValue("TableEndpoint", out var explicitEndpoint))
        {
            if (!Uri.TryCreate(explicitEndpoint, UriKind.Absolute, out var parsed) || parsed.Scheme is not ("http" or "https"))
                throw new FormatException("TableEndpoint must be an absolute http:// or https:// URL.");
            tableEndpoint = new Uri(parsed.GetLeftPart(UriPartial.Path).TrimEnd('/'));
        }
        else
        {
            if (string.IsNullOrEmpty(accountName))
                throw new FormatException("Set AccountName (with AccountKey) or TableEndpoint (with SharedAccessSignature).");
            var protocol = settings.GetValueOrDefault("DefaultEndpointsProtocol", "https");
            if (protocol is not ("http" or "https")) throw new FormatException("DefaultEndpointsProtocol must be http or https.");
            var suffix = settings.GetValueOrDefault("EndpointSuffix", "core.windows.net");
            tableEndpoint = new Uri($"{protocol}://{accountName}.table.{suffix}");
        }

        if (key is not null)
        {
            if (string.IsNullOrEmpty(accountName)) throw new FormatException("AccountKey needs AccountName: the signature names the account.");
            return new TableAccount(tableEndpoint, accountName, key, null, isDevelopmentStorage: false);
        }
        if (!string.IsNullOrEmpty(sas)) return new TableAccount(tableEndpoint, accountName, null, sas, isDevelopmentStorage: false);
        throw new FormatException("The connection string has neither AccountKey nor SharedAccessSignature.");
    }
}
