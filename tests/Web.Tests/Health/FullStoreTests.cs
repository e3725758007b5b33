using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Pages;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Health;

/// <summary>A results database with no room left: its history stays readable and deletable, and /healthz says so.</summary>
public class FullStoreTests
{
    [Fact]
    public async Task AFullDatabaseKeepsItsHistoryReadableAndDeletableAndHealthzSaysWhy()
    {
        // max_page_count, as a full disk: every write past it is SQLITE_FULL. In-process cache writes fill 3 MiB in a second or two.
        await using var app = new DashboardFactory(new() { ["Database:MaxSizeMiB"] = "3", ["RunLimits:MaxSamplesPerRun"] = "1000000000" });
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        Assert.Equal("Healthy", (await client.GetFromJsonAsync<JsonElement>("/healthz")).GetProperty("checks").GetProperty("database").GetProperty("status").GetString());
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", phases = new[] { "write" }, durationSeconds = 60, keyCount = 10 });
        var ended = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("failed", ended.GetProperty("status").GetString());
        Assert.StartsWith("Storing samples failed: the database or its disk is full", ended.GetProperty("error").GetString());

        // Reading writes what it works out (a digest, a summary) where it can: here it cannot, and the reader gets it all the same.
        foreach (var path in new[] { $"/runs/{id}", $"/runs/{id}/report", $"/api/runs/{id}", $"/api/runs/{id}?format=text", $"/api/runs/{id}/samples?format=csv", "/" })
        {
            var answer = await client.GetAsync(path);
            Assert.True(answer.StatusCode == HttpStatusCode.OK, $"{path}: {answer.StatusCode} {await answer.Content.ReadAsStringAsync()}");
        }
        Assert.True((await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("stats").GetProperty("count").GetInt32() > 0);

        var health = await client.GetAsync("/healthz");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, health.StatusCode);
        var database = (await health.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("checks").GetProperty("database");
        Assert.Equal("Unhealthy", database.GetProperty("status").GetString());
        Assert.Contains("reached Database:MaxSizeMiB", database.GetProperty("description").GetString());

        var page = await client.GetStringAsync($"/runs/{id}");

        // Delete works, and frees the room for what comes next.
        var deleted = await client.PostAsync($"/runs/{id}?handler=Delete", new FormUrlEncodedContent([new("confirm", "true"), new("__RequestVerificationToken", FormPost.Token(page))]));
        Assert.Equal(HttpStatusCode.Redirect, deleted.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync($"/api/runs/{id}")).StatusCode);
    }
}
