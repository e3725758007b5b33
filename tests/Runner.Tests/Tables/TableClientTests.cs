using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tables;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Tables;

/// <summary>The benchmark's five calls on Azure.Data.Tables against a real Azurite: what they do and how the answers are read.</summary>
public sealed class TableClientTests
{
    static List<BenchEntity> Entities(string partition, IEnumerable<int> rows, int bytes = 100) =>
        rows.Select(i => new BenchEntity(partition, $"r{i:D3}", new string('x', bytes))).ToList();

    [Fact]
    public void EveryFormOfConnectionStringGivesItsEndpointAndCredential()
    {
        var development = TableAccount.Parse("UseDevelopmentStorage=true");
        Assert.Equal("http://127.0.0.1:10002/devstoreaccount1", development.Endpoint.ToString());
        Assert.True(development.IsDevelopmentStorage);
        Assert.True(development.IsEmulator);

        var proxy = TableAccount.Parse("UseDevelopmentStorage=true;DevelopmentStorageProxyUri=http://emulator.local");
        Assert.Equal("http://emulator.local:10002/devstoreaccount1", proxy.Endpoint.ToString());

        var azure = TableAccount.Parse($"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={Azurite.AccountKey};EndpointSuffix=core.chinacloudapi.cn");
        Assert.Equal("https://acct.table.core.chinacloudapi.cn/", azure.Endpoint.ToString());
        Assert.Equal("acct", azure.AccountName);
        Assert.False(azure.IsEmulator);
        Assert.Equal("https://acct.table.core.windows.net/", TableAccount.Parse($"AccountName=acct;AccountKey={Azurite.AccountKey}").Endpoint.ToString());

        var pathStyle = TableAccount.Parse(Azurite.ConnectionStringFor(12345));
        Assert.Equal("http://127.0.0.1:12345/devstoreaccount1", pathStyle.Endpoint.ToString());
        Assert.True(pathStyle.IsEmulator);

        var sas = TableAccount.Parse("TableEndpoint=https://acct.table.core.windows.net/;SharedAccessSignature=?sv=2019-02-02&sig=abc");
        Assert.Equal("https://acct.table.core.windows.net (SAS)", sas.Describe());

        var managed = TableAccount.Parse("TableEndpoint=https://acct.table.core.windows.net;Credential=ManagedIdentity;ClientId=0b5a8c2e-8d8f-4a1e-9a61-7f1f8b1d3c4e");
        Assert.Equal((TableSignIn.ManagedIdentity, "0b5a8c2e-8d8f-4a1e-9a61-7f1f8b1d3c4e", (string?)null), (managed.SignIn, managed.ClientId, managed.Secret));
        Assert.Equal("https://acct.table.core.windows.net (Microsoft Entra, managed identity 0b5a8c2e-8d8f-4a1e-9a61-7f1f8b1d3c4e)", managed.Describe());
        var byDefault = TableAccount.Parse("AccountName=acct;Credential=defaultazurecredential");
        Assert.Equal("https://acct.table.core.windows.net (Microsoft Entra, DefaultAzureCredential)", byDefault.Describe());
        Assert.Equal("https://acct.table.core.windows.net (Microsoft Entra, system-assigned managed identity)",
            TableAccount.Parse("AccountName=acct;Credential=ManagedIdentity").Describe());
    }

    [Theory]
    [InlineData("AccountName=acct", "neither AccountKey nor SharedAccessSignature nor Credential")]
    [InlineData("AccountName=acct;AccountKey=not*base64*secret", "AccountKey is not base64")]
    [InlineData("AccountKey=c2VjcmV0", "Set AccountName")]
    [InlineData("TableEndpoint=ftp://x;SharedAccessSignature=sig=secret", "TableEndpoint must be an absolute http")]
    [InlineData("just-a-secret-string", "Name=value")]
    [InlineData("DefaultEndpointsProtocol=http;AccountName=acct;Credential=ManagedIdentity", "a token is never sent over http")]
    [InlineData("AccountName=acct;AccountKey=c2VjcmV0;Credential=ManagedIdentity", "not both")]
    [InlineData("AccountName=acct;Credential=Password", "Credential is DefaultAzureCredential or ManagedIdentity")]
    [InlineData("AccountName=acct;Credential=ManagedIdentity;ClientId=secret", "ClientId is a managed identity's client id")]
    public void AMalformedConnectionStringIsRefusedWithoutQuotingIt(string connectionString, string message)
    {
        var error = Assert.Throws<FormatException>(() => TableAccount.Parse(connectionString));
        Assert.Contains(message, error.Message);
        Assert.DoesNotContain("secret", error.Message);
    }

    [Fact]
    public async Task InsertsAndBatchesLandAndABatchAnswerCarriesEachEntitysStatus()
    {
        await using var azurite = await Azurite.StartAsync();
        using var connection = TableRuns.Connect(azurite.ConnectionString, "protocol");
        var client = connection.Client;

        Assert.True(await client.CreateTableIfNotExistsAsync(default));
        Assert.False(await client.CreateTableIfNotExistsAsync(default));
        Assert.Equal(204, (await client.InsertAsync(Entities("p", [0])[0], default)).Status);

        var batch = await client.SubmitBatchAsync(Entities("p", Enumerable.Range(1, 10)), default);
        Assert.True(batch.Succeeded);
        Assert.Equal(202, batch.BatchStatus);
        Assert.Equal(Enumerable.Repeat(204, 10), batch.OperationStatuses);
        Assert.Equal(11, await client.CountAsync("p", default));

        // r005 exists: the service answers 202 and says inside which entity failed; the batch wrote nothing.
        var conflict = await client.SubmitBatchAsync(Entities("p", [20, 21, 5, 22]), default);
        Assert.False(conflict.Succeeded);
        Assert.Equal((409, 202, "EntityAlreadyExists", 2), (conflict.Status, conflict.BatchStatus, conflict.ErrorCode, conflict.FailedEntity));
        Assert.Equal(11, await client.CountAsync("p", default));

        var single = await client.InsertAsync(Entities("p", [0])[0], default);
        Assert.Equal((409, "EntityAlreadyExists", (int?)null), (single.Status, single.ErrorCode, single.BatchStatus));

        Assert.Equal(11, await client.DeleteEntitiesAsync("p", default));
        Assert.Equal(0, await client.CountAsync("p", default));
    }

    [Fact]
    public async Task APartitionOfMoreThanOnePageIsCountedAndDeletedWhole()
    {
        await using var azurite = await Azurite.StartAsync();
        using var connection = TableRuns.Connect(azurite.ConnectionString, "pages");
        var client = connection.Client;
        await client.CreateTableIfNotExistsAsync(default);
        for (var from = 0; from < 1_300; from += 100)
            Assert.True((await client.SubmitBatchAsync(Entities("big", Enumerable.Range(from, 100), bytes: 10).Select((e, i) => e with { RowKey = $"r{from + i:D5}" }).ToList(), default)).Succeeded);

        Assert.Equal(1_300, await client.CountAsync("big", default)); // the service pages at 1,000
        Assert.Equal(1_300, await client.DeleteEntitiesAsync("big", default));
        Assert.Equal(0, await client.CountAsync("big", default));
    }

    [Fact]
    public async Task ABatchTheServiceWouldRefuseIsRefusedHereAndNothingIsSent()
    {
        await using var azurite = await Azurite.StartAsync();
        await using var relay = new HttpRelay(azurite.Port);
        using var connection = TableRuns.Connect(Azurite.ConnectionStringFor(relay.Port), "refused");

        async Task<string> RefusedAsync(List<BenchEntity> entities) =>
            (await Assert.ThrowsAsync<InvalidBatchException>(() => connection.Client.SubmitBatchAsync(entities, default))).Message;

        Assert.Equal("A batch holds at most 100 entities; this one has 101.", await RefusedAsync(Entities("p", Enumerable.Range(0, 101))));
        Assert.Equal("Every entity of a batch must share one PartitionKey; this one has 'p' and 'q'.",
            await RefusedAsync([.. Entities("p", [0, 1]), .. Entities("q", [2])]));
        Assert.Equal("RowKey 'r001' appears twice; a batch may touch each entity once.", await RefusedAsync(Entities("p", [0, 1, 2, 1])));
        Assert.StartsWith("The batch body is 4.", await RefusedAsync(Entities("p", Enumerable.Range(0, 100), bytes: 45_000)));
        Assert.Equal("A batch needs at least one entity.", await RefusedAsync([]));
        Assert.Empty(relay.Requests);
    }

    [Fact]
    public async Task AWrongKeyIsRefusedOnceWithTheServicesReasonAndNotRetried()
    {
        await using var azurite = await Azurite.StartAsync();
        await using var relay = new HttpRelay(azurite.Port);
        var wrongKey = Convert.ToBase64String(Encoding.ASCII.GetBytes("not the development account's key, but 64 bytes of it anyway!!"));
        using var connection = TableRuns.Connect(Azurite.ConnectionStringFor(relay.Port, wrongKey), "wrongkey");

        var refused = await Assert.ThrowsAsync<TableServiceException>(() => connection.Client.CreateTableIfNotExistsAsync(default));

        Assert.Equal(403, refused.Status);
        Assert.Equal("AuthorizationFailure", refused.Code);
        Assert.Single(relay.Requests);
    }

    [Fact]
    public async Task AnAccountSasAuthorisesWithoutTheKey()
    {
        await using var azurite = await Azurite.StartAsync();
        using var connection = TableRuns.Connect($"TableEndpoint={azurite.Endpoint};SharedAccessSignature={AccountSas()}", "withsas");

        Assert.True(await connection.Client.CreateTableIfNotExistsAsync(default));
        Assert.True((await connection.Client.SubmitBatchAsync(Entities("p", Enumerable.Range(0, 3)), default)).Succeeded);
        Assert.Equal(3, await connection.Client.CountAsync("p", default));
    }

    [Theory]
    [InlineData(-1, "rwdlacu", "AuthorizationFailure")] // expired an hour ago (Azurite's code for it)
    [InlineData(1, "rl", "AuthorizationPermissionMismatch")] // read and list only: no table may be created
    public async Task ASasTheServiceRefusesStopsAtTheFirstCallWithTheServicesReason(int expiresInHours, string permissions, string code)
    {
        await using var azurite = await Azurite.StartAsync();
        await using var relay = new HttpRelay(azurite.Port);
        using var connection = TableRuns.Connect($"TableEndpoint=http://127.0.0.1:{relay.Port}/{Azurite.AccountName};SharedAccessSignature={AccountSas(expiresInHours, permissions)}", "withsas");

        var refused = await Assert.ThrowsAsync<TableServiceException>(() => connection.Client.CreateTableIfNotExistsAsync(default));

        Assert.Equal((403, code), (refused.Status, refused.Code));
        Assert.StartsWith($"403 {code}: ", refused.Message);
        Assert.Single(relay.Requests);
    }

    [Fact]
    public async Task NagleIsOnOrOffOnTheSocketAsTheVariantAsks()
    {
        await using var azurite = await Azurite.StartAsync();
        foreach (var noDelay in new[] { true, false })
        {
            await using var stream = (System.Net.Sockets.NetworkStream)await TableConnection.ConnectAsync(new System.Net.DnsEndPoint("127.0.0.1", azurite.Port), noDelay, default);
            Assert.Equal(noDelay, stream.Socket.NoDelay);
        }
    }

    [Theory]
    [InlineData(400, "InvalidInput", "Bad Request", ErrorKind.HttpStatus)]
    [InlineData(409, "EntityAlreadyExists", "Conflict", ErrorKind.HttpStatus)]
    [InlineData(412, "UpdateConditionNotSatisfied", "Precondition Failed", ErrorKind.HttpStatus)]
    [InlineData(413, "RequestBodyTooLarge", "Request Entity Too Large", ErrorKind.HttpStatus)]
    [InlineData(429, "TooManyRequests", "Too Many Requests", ErrorKind.Throttled)]
    [InlineData(503, "ServerBusy", "Server Unavailable", ErrorKind.Throttled)]
    public async Task AFailureInsideABatchsAcceptedAnswerIsReadWithItsOperationAndClassified(int status, string code, string reason, ErrorKind kind)
    {
        // The service answers 202 to a failed transaction; the changeset holds the failing operation's real answer.
        var body =
            "--batchresponse_7\r\nContent-Type: multipart/mixed; boundary=changesetresponse_7\r\n\r\n" +
            "--changesetresponse_7\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
            $"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json;odata=nometadata;charset=utf-8\r\n\r\n" +
            $"{{\"odata.error\":{{\"code\":\"{code}\",\"message\":{{\"lang\":\"en-US\",\"value\":\"4:Operation failed.\\nRequestId:1\"}}}}}}\r\n" +
            "--changesetresponse_7--\r\n--batchresponse_7--\r\n";
        await using var relay = new HttpRelay(null, _ => RelayReply.Respond(202, "Accepted", "multipart/mixed; boundary=batchresponse_7", body));
        using var connection = TableRuns.Connect(Azurite.ConnectionStringFor(relay.Port), "answered");

        var outcome = await connection.Client.SubmitBatchAsync(Entities("p", Enumerable.Range(0, 6)), default);

        Assert.Equal((status, code, "Operation failed.", (int?)4, (int?)202), (outcome.Status, outcome.ErrorCode, outcome.Message, outcome.FailedEntity, outcome.BatchStatus));
        Assert.False(outcome.Succeeded);
        Assert.Equal(kind, TableErrorClassifier.Classify(outcome));
        Assert.Equal($"{status} {code}: Operation failed. (inside a batch's 202 answer)", TableErrorClassifier.Describe(outcome));
        Assert.Single(relay.Requests); // nothing retried, throttling included
    }

    /// <summary>An account SAS for the Table service (version 2019-02-02's string to sign), made as the portal would.</summary>
    static string AccountSas(int expiresInHours = 1, string permissions = "rwdlacu")
    {
        const string version = "2019-02-02", services = "t", resourceTypes = "sco", protocol = "https,http";
        var expiry = DateTime.UtcNow.AddHours(expiresInHours).ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture);
        var toSign = string.Join("\n", Azurite.AccountName, permissions, services, resourceTypes, "", expiry, "", protocol, version) + "\n";
        var signature = Convert.ToBase64String(HMACSHA256.HashData(Convert.FromBase64String(Azurite.AccountKey), Encoding.UTF8.GetBytes(toSign)));
        return $"sv={version}&ss={services}&srt={resourceTypes}&sp={permissions}&se={Uri.EscapeDataString(expiry)}&spr={Uri.EscapeDataString(protocol)}&sig={Uri.EscapeDataString(signature)}";
    }
}
