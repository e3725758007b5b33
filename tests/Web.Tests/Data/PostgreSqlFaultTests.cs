using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Data;

/// <summary>
/// A dashboard on PostgreSQL whose server cannot be used at start: it starts anyway, /healthz says plainly why,
/// a page answers 503 with the reason and no stack trace, the password is shown nowhere, and once the server is
/// reachable with the right password the dashboard recovers on its own.
/// </summary>
public sealed class PostgreSqlFaultTests
{
    static Dictionary<string, string?> OnPostgreSql(string connectionString) => new()
    {
        ["Database:Provider"] = "postgresql",
        ["ConnectionStrings:results"] = connectionString,
        ["Runner:Process"] = "None", // the database check is under test, not the runner's
    };

    static async Task<(HttpStatusCode Status, string Description)> DatabaseHealthAsync(HttpClient client)
    {
        var response = await client.GetAsync("/healthz");
        var health = await response.Content.ReadFromJsonAsync<JsonElement>();
        return (response.StatusCode, health.GetProperty("checks").GetProperty("database").GetProperty("description").GetString()!);
    }

    [Fact]
    public async Task AnUnreachableServerIsReportedPlainlyByHealthzAndThePages()
    {
        var closedPort = ServerProcessPort.Free();
        await using var dashboard = new DashboardFactory(OnPostgreSql($"Host=127.0.0.1;Port={closedPort};Database=bench;Username=bench;Password=s3cret-pass;Timeout=2"));
        using var client = dashboard.CreateClient();

        var (status, description) = await DatabaseHealthAsync(client);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, status);
        Assert.StartsWith("The results database cannot be opened: the PostgreSQL server cannot be reached", description);

        var page = await client.GetAsync("/");
        var body = await page.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.ServiceUnavailable, page.StatusCode);
        Assert.Contains("cannot be reached", body);
        Assert.DoesNotContain("   at ", body); // no stack trace
        Assert.DoesNotContain("s3cret-pass", body + description);
        // A page for a browser, the API's problem document for a client.
        Assert.StartsWith("text/html", page.Content.Headers.ContentType!.ToString());
        Assert.Contains("<h1>The results database cannot be used right now</h1>", body);
        var api = await client.GetAsync("/api/runs");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, api.StatusCode);
        Assert.StartsWith("application/problem+json", api.Content.Headers.ContentType!.ToString());
    }

    [Fact]
    public async Task AWrongPasswordIsReportedAsSuchAndTheRightOneWorks()
    {
        var server = await PostgreSqlServer.Shared;
        var connectionString = await server.CreateDatabaseAsync();
        try
        {
            var wrong = connectionString.Replace(PostgreSqlServer.Password, "not-the-password");
            await using var dashboard = new DashboardFactory(OnPostgreSql(wrong));
            using var client = dashboard.CreateClient();
            var (status, description) = await DatabaseHealthAsync(client);
            Assert.Equal(HttpStatusCode.ServiceUnavailable, status);
            Assert.Contains("refused the sign-in", description);
            Assert.DoesNotContain("not-the-password", description);

            await using var right = new DashboardFactory(OnPostgreSql(connectionString));
            using var rightClient = right.CreateClient();
            var deadline = DateTime.UtcNow.AddSeconds(20);
            while ((await DatabaseHealthAsync(rightClient)).Status != HttpStatusCode.OK && DateTime.UtcNow < deadline) await Task.Delay(100);
            Assert.Equal((HttpStatusCode.OK, "Reachable, all migrations applied."), await DatabaseHealthAsync(rightClient));
            Assert.Equal(HttpStatusCode.OK, (await rightClient.GetAsync("/api/runs")).StatusCode);
        }
        finally
        {
            await server.DropDatabaseAsync(connectionString);
        }
    }

    /// <summary>A loopback port nothing listens on.</summary>
    static class ServerProcessPort
    {
        public static int Free()
        {
            using var listener = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            return ((IPEndPoint)listener.LocalEndpoint).Port;
        }
    }
}
