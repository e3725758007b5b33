using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Azure.Core;
using Azure.Core.Pipeline;

namespace BenchDashboard.Runner.Tables.Protocol;

/// <summary>
/// Authorises each request (on every try, as the date must be fresh): SharedKeyLite for an account key, or
/// the SAS token appended to the query. SharedKeyLite for the Table service signs
/// <c>x-ms-date + "\n" + "/" + account + path [+ "?comp=…"]</c> with HMAC-SHA256 of the key; for a path-style
/// endpoint (Azurite) the path already starts with the account, and it is signed as it is sent.
/// </summary>
sealed class AuthorizationPolicy(TableAccount account) : HttpPipelineSynchronousPolicy
{
    public override void OnSendingRequest(HttpMessage message)
    {
        var request = message.Request;
        if (account.SharedAccessSignature is { } sas)
        {
            var uri = request.Uri.ToUri();
            request.Uri.Reset(new Uri(uri.AbsoluteUri + (uri.Query.Length > 1 ? "&" : "?") + sas));
            return;
        }
        var date = DateTimeOffset.UtcNow.ToString("r", CultureInfo.InvariantCulture);
        request.Headers.SetValue("x-ms-date", date);
        var signature = Sign(account.Key!, StringToSign(date, account.AccountName!, request.Uri.ToUri()));
        request.Headers.SetValue("Authorization", $"SharedKeyLite {account.AccountName}:{signature}");
    }

    internal static string StringToSign(string date, string accountName, Uri uri)
    {
        var resource = new StringBuilder("/").Append(accountName).Append(uri.AbsolutePath.Length == 0 ? "/" : uri.AbsolutePath);
        var comp = System.Web.HttpUtility.ParseQueryString(uri.Query)["comp"];
        if (comp is not null) resource.Append("?comp=").Append(comp);
        return date + "\n" + resource;
    }

    internal static string Sign(byte[] key, string stringToSign) =>
        Convert.ToBase64String(HMACSHA256.HashData(key, Encoding.UTF8.GetBytes(stringToSign)));
}

/// <summary>
/// Asks for <c>Expect: 100-continue</c> on every request of a variant that wants it (seed 003's
/// ServicePointManager.Expect100Continue): the client sends the headers, waits for "100 Continue" (or the
/// handler's Expect100ContinueTimeout), then the body.
/// </summary>
sealed class ExpectContinuePolicy : HttpPipelineSynchronousPolicy
{
    public override void OnSendingRequest(HttpMessage message) => message.Request.Headers.SetValue("Expect", "100-continue");
}
