using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Text;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Tests.Kinds.Http;

/// <summary>A journey's data file: read (CSV by CsvHelper, JSON lines), checked field by field, dealt to agents, shown without its rows.</summary>
public class JourneyDataTests
{
    static DataTable Read(string format, string content) =>
        DataTable.Read(format, content, HttpDataFile.Limits, out var problem) ?? throw new Xunit.Sdk.XunitException(problem);

    static string? Problem(string format, string content, DataTable.Limits? limits = null)
    {
        Assert.Null(DataTable.Read(format, content, limits ?? HttpDataFile.Limits, out var problem));
        return problem;
    }

    [Fact]
    public void CsvFieldsAreReadWithRfc4180Quoting()
    {
        var table = Read("csv", "user,password,note\r\nann,\"p,w\",\"she said \"\"hi\"\"\"\nbob,x,\"two\r\nlines\"\n\ncid,,\n");
        Assert.Equal(["user", "password", "note"], table.Columns);
        Assert.Equal(3, table.Rows.Count); // the empty line is no row
        Assert.Equal(["ann", "p,w", "she said \"hi\""], table.Rows[0]);
        Assert.Equal(["bob", "x", "two\r\nlines"], table.Rows[1]);
        Assert.Equal(["cid", "", ""], table.Rows[2]);
    }

    [Theory]
    [InlineData("a,b,c,d\n1,2,3,4\n1,2,3,4\n1,2,3\n", "line 4: 3 fields, the header has 4.")]
    [InlineData("a,b\n1,2\n\"x\nmore\",2\n1\n", "line 5: 1 field, the header has 2.")] // a quoted line break is a line too
    [InlineData("a,a\n1,2\n", "line 1: the column 'a' is named twice.")]
    public void ACsvProblemSaysWhichLine(string content, string expected) => Assert.Equal(expected, Problem("csv", content));

    [Fact]
    public void MalformedQuotingIsRefusedWithItsLine()
    {
        var problem = Problem("csv", "a,b\n1,2\n3,\"unclosed\n");
        Assert.StartsWith("line 3: ", problem);
    }

    [Fact]
    public void JsonLinesAreFlatObjectsWithTheFirstLinesNamesAndValuesAsText()
    {
        var table = Read("jsonl", "{\"user\":\"ann\",\"id\":7,\"admin\":true}\r\n\n{\"id\":8,\"user\":\"bob\",\"admin\":false}\n");
        Assert.Equal(["user", "id", "admin"], table.Columns);
        Assert.Equal([["ann", "7", "true"], ["bob", "8", "false"]], table.Rows);
    }

    [Theory]
    [InlineData("{\"a\":1}\n{\"a\":2,\"b\":3}\n", "line 2: 'b' is not one of the first line's names.")]
    [InlineData("{\"a\":1,\"b\":2}\n\n{\"a\":2}\n", "line 3: no 'b'; every line has the first line's names.")]
    [InlineData("{\"a\":1}\n{\"a\":{\"x\":1}}\n", "line 2: the value of 'a' is not text, a number or true/false (the object is flat).")]
    [InlineData("{\"a\":1}\nnot json\n", "line 2: not a JSON object.")]
    [InlineData("[1,2]\n", "line 1: not a JSON object.")]
    [InlineData("\n\n", "The file has no lines: one JSON object a line.")]
    public void AJsonLinesProblemSaysWhichLine(string content, string expected) => Assert.Equal(expected, Problem("jsonl", content));

    [Fact]
    public void TheLimitsStopReadingWithTheLineThatPassesThem()
    {
        var limits = new DataTable.Limits(MaxRows: 2, MaxColumns: 3, MaxValueLength: 5);
        Assert.Equal("line 4: more than 2 rows.", Problem("csv", "a\n1\n2\n3\n", limits));
        Assert.Equal("line 1: 4 columns, at most 3.", Problem("csv", "a,b,c,d\n1,2,3,4\n", limits));
        Assert.Equal("line 2: the value of 'a' is longer than 5 characters.", Problem("csv", "a\n123456\n", limits));
        Assert.Equal("line 3: more than 2 rows.", Problem("jsonl", "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", limits));
    }

    [Theory]
    [InlineData("csv")]
    [InlineData("jsonl")]
    public void AgentsShareOutRowsEachOnceWithoutOverlapAndWithTheValuesIntact(string format)
    {
        var rows = Enumerable.Range(0, 10).Select(i => new[] { $"u{i}", i % 3 == 0 ? $"a \"quoted\", value\n{i}" : $" {i} " }).ToList();
        var file = new HttpDataFile { Name = "f", Format = format, Mode = HttpDataFile.Once, Content = new DataTable(["user", "note"], rows).Write(format) };
        Assert.Equal(rows, file.Read().Rows);

        var shares = Enumerable.Range(0, 3).Select(i => file.ShareOf(i, 3).Read()).ToList();
        Assert.Equal(["u0", "u3", "u6", "u9"], shares[0].Rows.Select(r => r[0]));
        Assert.Equal(["u1", "u4", "u7"], shares[1].Rows.Select(r => r[0]));
        Assert.Equal(rows.OrderBy(r => r[0]), shares.SelectMany(s => s.Rows).OrderBy(r => r[0]));
        // Other modes: every agent reads the whole file.
        var random = file with { Mode = HttpDataFile.Random };
        Assert.Same(random, random.ShareOf(1, 3));
    }

    static Dictionary<string, string[]> Errors(HttpParameters p) => HttpParametersValidator.Validate(p, new RunLimits());

    static readonly HttpStep SignIn = new()
    {
        Name = "signin", Method = "POST", Url = "http://127.0.0.1:5000/signin", Body = "{\"user\":\"{{user}}\",\"password\":\"{{password}}\"}",
        Extract = [new() { Name = "token", Json = "$.token" }],
    };

    static HttpParameters Journey(HttpDataFile data) => new() { Steps = [SignIn], Data = data, Requests = 10, Concurrency = 1 };

    static readonly HttpDataFile Users = new() { Name = "users.csv", Format = "csv", Content = "user,password\nann,secret\n" };

    [Fact]
    public void AJourneysStepsMayReferToTheFilesColumnsAndNothingElseIsAdded()
    {
        Assert.Empty(Errors(Journey(Users)));
        Assert.Equal(HttpDataFile.Sequential, Users.Mode);
        // Without the file the same steps refer to nothing.
        Assert.Contains(Errors(Journey(Users) with { Data = null })["steps[0].body"], e => e.StartsWith("'{{user}}' is neither a built-in", StringComparison.Ordinal));
    }

    [Fact]
    public void EachProblemIsKeyedByTheFieldItIsIn()
    {
        Assert.Contains("journey", Assert.Single(Errors(new HttpParameters { Url = "http://127.0.0.1:5000/", Data = Users, Requests = 1 })["data"]));
        Assert.Contains("sequential, random or once", Assert.Single(Errors(Journey(Users with { Mode = "shuffle" }))["data.mode"]));
        Assert.Contains("csv", Assert.Single(Errors(Journey(Users with { Format = "xlsx" }))["data.format"]));
        Assert.Contains("Name the file", Assert.Single(Errors(Journey(Users with { Name = " " }))["data.name"]));
        Assert.Equal("line 3: 1 field, the header has 2.", Assert.Single(Errors(Journey(Users with { Content = "user,password\nann,secret\nbob\n" }))["data.content"]));
        Assert.Contains("no rows", Assert.Single(Errors(Journey(Users with { Content = "user,password\n" }))["data.content"]));
        Assert.Contains("1 MiB", Assert.Single(Errors(Journey(Users with { Content = "user,password\n" + new string('x', HttpDataFile.MaxContentBytes) }))["data.content"]));
        Assert.Contains("not a variable's name", Assert.Single(Errors(Journey(Users with { Content = "user,pass word\nann,secret\n" }))["data.content"]));
        Assert.Contains("'counter' is a built-in", Assert.Single(Errors(Journey(Users with { Content = "user,password,counter\nann,secret,1\n" }))["data.content"]));
        Assert.Equal("The column 'token' is also extracted by steps[0].extract[0]; rename one of them.",
            Assert.Single(Errors(Journey(Users with { Content = "user,password,token\nann,secret,t\n" }))["data.content"]));
    }

    [Fact]
    public void TooManyRowsOrColumnsAreRefused()
    {
        var rows = "user,password\n" + string.Concat(Enumerable.Repeat("a,b\n", HttpDataFile.MaxRows + 1));
        Assert.Equal($"line {HttpDataFile.MaxRows + 2}: more than 100,000 rows.", Assert.Single(Errors(Journey(Users with { Content = rows }))["data.content"]));
        var columns = string.Join(',', Enumerable.Range(0, 51).Select(i => $"c{i}")) + ",user,password\n";
        Assert.Contains("53 columns, at most 50", Assert.Single(Errors(Journey(Users with { Content = columns }))["data.content"]));
    }

    [Fact]
    public void AnHttpRunOverAgentsDealsOutRowsUsedOnceAndRefusesMoreAgentsThanRows()
    {
        var kind = new HttpKind(Options.Create(new RunLimits()), new TargetPolicy(new TargetOptions { AllowLoopback = true }, isDevelopment: false, siteHostName: null));
        var data = Users with { Mode = HttpDataFile.Once, Content = "user,password\n" + string.Concat(Enumerable.Range(0, 5).Select(i => $"u{i},secret\n")) };
        var p = Journey(data) with { Concurrency = 2 };

        var parts = kind.Split(p, 2).Parts.Select(x => ((HttpParameters)x.Parameters).Data!.Read().Rows.Select(r => r[0])).ToList();
        Assert.Equal(["u0", "u2", "u4"], parts[0]);
        Assert.Equal(["u1", "u3"], parts[1]);
        Assert.Equal("journey: signin, rows of users.csv (once)", kind.Describe(p));
        Assert.Contains("give each at least one row", kind.Split(Journey(Users with { Mode = HttpDataFile.Once }) with { Concurrency = 2 }, 2).Refusal);
        // In order or at random, each agent reads the whole file.
        Assert.All(kind.Split(Journey(data with { Mode = HttpDataFile.Sequential }) with { Concurrency = 2 }, 2).Parts,
            x => Assert.Equal(5, ((HttpParameters)x.Parameters).Data!.Read().Rows.Count));
    }

    [Fact]
    public void ReadersSeeTheFilesNameModeRowsAndFingerprintButNotItsRows()
    {
        var display = new ParameterDisplay(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));
        var json = Json.Serialize(Journey(Users with { Content = "user,password\nann,hunter2\nbob,swordfish\n" }));

        foreach (var shown in new[] { display.Redact(json), display.Reveal(json) })
        {
            Assert.DoesNotContain("hunter2", shown);
            Assert.DoesNotContain("swordfish", shown);
            Assert.Contains("\"name\":\"users.csv\"", shown);
            Assert.Contains("\"format\":\"csv\"", shown);
            Assert.Contains("\"mode\":\"sequential\"", shown);
            Assert.Contains("\"rows\":2", shown);
            Assert.Contains($"\"content\":\"{display.Fingerprint("user,password\nann,hunter2\nbob,swordfish\n")}\"", shown);
        }
        // An administrator still sees everything else as it is; a run without a file is not even parsed again.
        var plain = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:5000/?token=abc", Requests = 1 });
        Assert.Same(plain, display.Reveal(plain));
    }
}
