using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.Core.Data.Migrations
{
    /// <inheritdoc />
    public partial class BenchmarkTimeZone : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "TimeZone",
                table: "Benchmarks",
                type: "TEXT",
                maxLength: 64,
                nullable: false,
                defaultValue: "UTC");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "TimeZone",
                table: "Benchmarks");
        }
    }
}
