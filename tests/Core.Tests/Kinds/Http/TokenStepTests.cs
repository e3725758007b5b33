using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;

namespace BenchDashboard.Core.Tests.Kinds.Http;

/// <summary>A journey's token step: a name and a token, nothing of a request; its variable is known from it on.</summary>
public class TokenStepTests
{
    static readonly HttpStep Orders = new() { Name = "orders", Url = "http://127.0.0.1:1/orders", Headers = new() { ["Authorization"] = "Bearer {{token}}" } };

    static Dictionary<string, string[]> Errors(params HttpStep[] steps) =>
        HttpParametersValidator.Validate(new HttpParameters { Requests = 5, Steps = [.. steps] }, new RunLimits());

    static HttpStep Token(HttpTokenStep? token = null) => new() { Name = "token", Token = token ?? new() { Scope = "api://target/.default" } };

    [Fact]
    public void ATokenStepDefinesItsVariableForTheStepsAfterIt()
    {
        Assert.Empty(Errors(Token(), Orders));
        Assert.Empty(Errors(Token(new() { Scope = "api://target/.default", Variable = "bearer", Credential = HttpTokenCredential.Default, ClientId = "0b5a8c2e-8d8f-4a1e-9a61-7f1f8b1d3c4e" }),
            Orders with { Headers = new() { ["Authorization"] = "Bearer {{bearer}}" } }));
        // Before it, the variable is nobody's.
        Assert.Equal(["steps[0].headers"], Errors(Orders, Token()).Keys);
    }

    public static TheoryData<HttpStep, string> RequestParts => new()
    {
        { Token() with { Url = "http://127.0.0.1:1/" }, "steps[0].url" },
        { Token() with { Method = "POST" }, "steps[0].method" },
        { Token() with { Headers = new() { ["X-A"] = "b" } }, "steps[0].headers" },
        { Token() with { Body = "" }, "steps[0].body" },
        { Token() with { Extract = [new() { Name = "x", Header = "X" }] }, "steps[0].extract" },
        { Token() with { Checks = [new() { Status = 200 }] }, "steps[0].checks" },
        { Token() with { ThinkTime = new() { Ms = 5 } }, "steps[0].thinkTime" },
    };

    [Theory]
    [MemberData(nameof(RequestParts))]
    public void ATokenStepWithAnyPartOfARequestIsRefusedAtThatField(HttpStep step, string field) =>
        Assert.Equal([field], Errors(step).Keys);

    public static TheoryData<HttpTokenStep, string> BadTokens => new()
    {
        { new() { Scope = "" }, "steps[0].token.scope" },
        { new() { Scope = "api://a/.default api://b/.default" }, "steps[0].token.scope" },
        { new() { Scope = new string('s', HttpTokenStep.MaxScopeLength + 1) }, "steps[0].token.scope" },
        { new() { Scope = "api://a/.default", Variable = "1x" }, "steps[0].token.variable" },
        { new() { Scope = "api://a/.default", Variable = "guid" }, "steps[0].token.variable" },
        { new() { Scope = "api://a/.default", Credential = (HttpTokenCredential)7 }, "steps[0].token.credential" },
        { new() { Scope = "api://a/.default", ClientId = "my-identity" }, "steps[0].token.clientId" },
    };

    [Theory]
    [MemberData(nameof(BadTokens))]
    public void ABadTokenIsRefusedAtItsField(HttpTokenStep token, string field) =>
        Assert.Equal([field], Errors(Token(token)).Keys);

    [Fact]
    public void ATokenStepReadsAndWritesAsTheApiNamesIt()
    {
        var step = Json.Deserialize<HttpStep>("""{"name":"sign-in","token":{"scope":"api://a/.default","credential":"default","clientId":"0b5a8c2e-8d8f-4a1e-9a61-7f1f8b1d3c4e"}}""");
        Assert.Equal(new HttpTokenStep { Scope = "api://a/.default", Credential = HttpTokenCredential.Default, ClientId = "0b5a8c2e-8d8f-4a1e-9a61-7f1f8b1d3c4e" }, step.Token);
        Assert.Equal("token", step.Token!.Variable);
        Assert.Contains("\"credential\":\"managedIdentity\"", Json.Serialize(Token()));
        Assert.DoesNotContain("\"token\":", Json.Serialize(Orders)); // a step without one is written as before
        // A token step is a series of its own like any step (its failed fetches are its errors).
        Assert.Equal(["sign-in", "iteration"], Journey.Series(null, [step]));
    }
}
