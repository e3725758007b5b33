using BenchDashboard.Core.Reports.Markdown;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Core.Tests.Runs;

/// <summary>Cells of stored text render as that text, in one cell, whatever markup it holds (rendered by Markdig, not compared as strings).</summary>
public class MarkdownTableTests
{
    [Theory]
    [InlineData("a|b|c")]
    [InlineData("<script>alert(1)</script>")]
    [InlineData("<img src=x onerror=alert(1)>")]
    [InlineData("**bold** _em_ ~~gone~~")]
    [InlineData("[click](javascript:alert(1))")]
    [InlineData("![image](http://127.0.0.1/x.png)")]
    [InlineData("`code` and \\| a backslash before a pipe")]
    [InlineData("&lt; an entity &amp; another")]
    [InlineData("http://127.0.0.1:8080/path?q=a|b&sig=(hidden, 9 chars, id 1a2b3c4d)")]
    [InlineData("http://127.0.0.1/a|b?\\<img src=x onerror=alert(1)>")]
    [InlineData("www.example.com/\\<img src=x onerror=alert(1)> and me@example.com\\<b>")]
    [InlineData("mailto:me@example.com\\<img src=x> tel:+123\\<b> FTP://host/\\<i>")]
    public void StoredTextIsOneCellOfPlainText(string stored)
    {
        var markdown = new System.Text.StringBuilder();
        new MarkdownTable("Name", ">Count").Row(stored, "7").WriteTo(markdown);

        var html = MarkdownTables.Html(markdown.ToString());
        var table = Assert.Single(MarkdownTables.Of(markdown.ToString()));

        Assert.Equal(["Name", "Count"], table[0]);
        Assert.Equal([stored, "7"], table[1]);
        Assert.DoesNotContain("<script", html);
        Assert.DoesNotContain("<img", html);
        Assert.DoesNotContain("<strong", html);
        Assert.DoesNotContain("<code", html);
        Assert.DoesNotContain("javascript:alert(1)\"", html); // no link to it
    }

    [Fact]
    public void AColonThatStartsNoAddressIsLeftAsItIs()
    {
        Assert.Equal("Demo: 5 ms", MarkdownTable.Escape("Demo: 5 ms"));
        Assert.Equal("http\\://host/a\\|b", MarkdownTable.Escape("http://host/a|b"));
    }

    [Fact]
    public void LineBreaksInStoredTextStayInTheCell()
    {
        var markdown = new System.Text.StringBuilder();
        new MarkdownTable("Name").Row("first\nsecond\r\n| third").WriteTo(markdown);

        Assert.Equal("first second  | third", Assert.Single(MarkdownTables.Of(markdown.ToString()))[1][0]);
    }

    [Fact]
    public void NumberColumnsAreRightAligned()
    {
        var markdown = new System.Text.StringBuilder();
        new MarkdownTable("Name", ">ms").Row("a", "1.000").WriteTo(markdown);

        Assert.Contains("style=\"text-align: right;\"", MarkdownTables.Html(markdown.ToString()));
    }

    [Fact]
    public void ARowOfTheWrongWidthIsRefused() =>
        Assert.Throws<ArgumentException>(() => new MarkdownTable("a", "b").Row("only one"));

    [Fact]
    public void AsTextTheSameCellsStandInAlignedColumnsUnescaped()
    {
        var text = new System.Text.StringBuilder();
        new MarkdownTable("Setting", ">Median (ms)", "Verdict")
            .Row("WEBSITE_DYNAMIC_CACHE=0 (baseline)", "105.560", "baseline")
            .Row("a|b *c*", "77.000 (72.9 %)", "1.37× faster")
            .Row("line\nbreak", "–", "")
            .WriteTextTo(text);

        Assert.Equal(
            """
            Setting                                 Median (ms)  Verdict
            ----------------------------------  ---------------  ------------
            WEBSITE_DYNAMIC_CACHE=0 (baseline)          105.560  baseline
            a|b *c*                             77.000 (72.9 %)  1.37× faster
            line break                                        –

            """.Replace("\r\n", "\n"), text.ToString());
    }
}
