"""A real Vietnamese amending Law, for the amending-grammar tests: Luật số 24/2012/QH13 sửa đổi, bổ sung một số điều
của Luật điện lực (20-11-2012), every instruction line as the law prints it (text published on vbpl.vn, copied from a
public repository's database dump of it). The quoted new wordings are cut to their first sentence; the amended Luật
điện lực (28/2004/QH11) is named only by title in the articles, by number once, in the preamble (whose line really
ends with a comma). Point d) of Điều 2 khoản 1 really opens a quote it never closes (“quy phạm).

GOLD lists every provision each instruction names: (article, clause, point) of the amending item → (article,
clause, point) in the amended law; "ch:VIII" is a chapter; a target marked new= is a unit the instruction inserts
(the amended law does not have it).
"""
from __future__ import annotations

AMENDING_LAW = """QUỐC HỘI
Luật số: 24/2012/QH13
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT ĐIỆN LỰC
Căn cứ Hiến pháp nước Cộng hòa xã hội chủ nghĩa Việt Nam năm 1992 đã được sửa đổi, bổ sung một số điều theo Nghị quyết số 51/2001/QH10;
Quốc hội ban hành Luật sửa đổi, bổ sung một số điều của Luật điện lực số 28/2004/QH11,
Điều 1.
Sửa đổi, bổ sung một số điều của Luật điện lực như sau:
1. Bổ sung khoản 17 và khoản 18 vào Điều 3 như sau:
“17. Giá bán buôn điện là giá bán điện của đơn vị điện lực này bán cho đơn vị điện lực khác để bán lại.
18. Giá bán lẻ điện là giá bán điện của đơn vị điện lực bán cho khách hàng sử dụng điện.”
2. Bổ sung khoản 1a vào sau khoản 1; sửa đổi, bổ sung khoản 3 và khoản 4 Điều 4 như sau:
“1a. Ưu tiên phát triển điện phục vụ nông thôn, miền núi, biên giới, hải đảo và vùng có điều kiện kinh tế - xã hội đặc biệt khó khăn.
3. Áp dụng tiến bộ khoa học và công nghệ trong hoạt động điện lực, sử dụng điện nhằm tiết kiệm, nâng cao hiệu quả sử dụng các nguồn năng lượng, bảo vệ môi trường.
4. Đẩy mạnh việc khai thác và sử dụng các nguồn năng lượng mới, năng lượng tái tạo để phát điện.”
3. Khoản 1 và khoản 3 Điều 8 được sửa đổi, bổ sung như sau:
“1. Quy hoạch phát triển điện lực là quy hoạch chuyên ngành bao gồm quy hoạch phát triển điện lực quốc gia và quy hoạch phát triển điện lực tỉnh, thành phố trực thuộc trung ương.
3. Quy hoạch phát triển điện lực tỉnh, thành phố trực thuộc trung ương được lập trên cơ sở quy hoạch tổng thể phát triển kinh tế - xã hội của địa phương.”
4. Bổ sung Điều 8a vào sau Điều 8 như sau:
“Điều 8a. Nội dung quy hoạch phát triển điện lực
1. Quy hoạch phát triển điện lực quốc gia bao gồm những nội dung chính sau đây:
a) Tổng quan về tình hình phát triển kinh tế - xã hội và hệ thống năng lượng quốc gia trong giai đoạn quy hoạch;
b) Dự báo nhu cầu điện;
2. Quy hoạch phát triển điện lực tỉnh, thành phố trực thuộc trung ương bao gồm những nội dung chính sau đây:
a) Quy hoạch, định hướng và mục tiêu phát triển kinh tế - xã hội của tỉnh, thành phố trực thuộc trung ương trong giai đoạn quy hoạch.”
5. Sửa đổi, bổ sung tên Điều 9 và nội dung khoản 1, khoản 2 Điều 9 như sau:
“Điều 9. Lập, phê duyệt, công bố và điều chỉnh quy hoạch phát triển điện lực
1. Bộ Công thương tổ chức lập quy hoạch phát triển điện lực quốc gia trình Thủ tướng Chính phủ phê duyệt.
2. Ủy ban nhân dân tỉnh, thành phố trực thuộc trung ương (sau đây gọi chung là Ủy ban nhân dân cấp tỉnh) tổ chức lập quy hoạch phát triển điện lực tỉnh, thành phố trực thuộc trung ương.”
6. Khoản 1 Điều 11 được sửa đổi, bổ sung như sau:
“1. Đầu tư phát triển điện lực phải phù hợp với quy hoạch phát triển điện lực.”
7. Điểm đ khoản 1 Điều 16 được sửa đổi, bổ sung như sau:
“đ) Tổ chức kiểm toán năng lượng điện theo định kỳ và thực hiện các giải pháp điều chỉnh sau khi có kết luận kiểm toán.”
8. Khoản 2 Điều 18 được sửa đổi, bổ sung như sau:
“2. Thủ tướng Chính phủ quy định điều kiện, cơ cấu ngành điện để hình thành và phát triển các cấp độ thị trường điện lực.”
9. Khoản 6 Điều 23 được sửa đổi, bổ sung như sau:
“6. Trong trường hợp bên mua điện không trả tiền điện và đã được bên bán điện thông báo hai lần thì sau mười lăm ngày, kể từ ngày thông báo lần đầu tiên, bên bán điện có quyền ngừng cấp điện.”
10. Khoản 2 Điều 24 được sửa đổi, bổ sung như sau:
“2. Thiết bị đo đếm điện phải bảo đảm yêu cầu kỹ thuật đo lường và được kiểm định, hiệu chuẩn, thử nghiệm theo quy định của pháp luật về đo lường.”
11. Sửa đổi, bổ sung tên Điều 25 và nội dung khoản 1, khoản 2 Điều 25 như sau:
“Điều 25. Kiểm định, hiệu chuẩn, thử nghiệm thiết bị đo đếm điện
1. Chỉ những tổ chức kiểm định, hiệu chuẩn, thử nghiệm đã đăng ký hoặc được chỉ định theo quy định của pháp luật về đo lường mới được phép kiểm định, hiệu chuẩn, thử nghiệm thiết bị đo đếm điện.
2. Bên bán điện có trách nhiệm tổ chức việc kiểm định, hiệu chuẩn, thử nghiệm thiết bị đo đếm điện theo đúng yêu cầu và thời hạn quy định của pháp luật về đo lường.”
12. Điểm c khoản 2 Điều 28 được sửa đổi, bổ sung như sau:
“c) Không làm tổn hại đến lợi ích của khách hàng sử dụng điện, lợi ích của Nhà nước và an ninh năng lượng quốc gia.”
13. Bổ sung khoản 1a vào sau khoản 1; sửa đổi, bổ sung khoản 3 và khoản 4 Điều 29 như sau:
“1a. Giá bán điện thực hiện theo cơ chế thị trường có sự điều tiết của Nhà nước phù hợp với cấp độ phát triển của thị trường điện lực.
3. Thực hiện cơ cấu biểu giá bán lẻ điện hợp lý đối với các nhóm khách hàng.
4. Bảo đảm quyền tự quyết định giá mua, bán điện trong khung giá, cơ cấu biểu giá bán lẻ điện do Nhà nước quy định của các đối tượng mua bán điện trên thị trường điện lực.”
14. Bổ sung khoản 6 vào Điều 30 như sau:
“6. Báo cáo tài chính đã được kiểm toán hàng năm của đơn vị điện lực.”
15. Các khoản 1, 2 và 3 Điều 31 được sửa đổi, bổ sung như sau:
“1. Giá bán lẻ điện do đơn vị bán lẻ điện xây dựng căn cứ khung giá của mức giá bán lẻ điện bình quân, trừ trường hợp quy định tại khoản 2 Điều 62 của Luật này.
2. Khung giá phát điện, khung giá bán buôn điện, giá truyền tải điện do đơn vị điện lực có liên quan xây dựng, trừ trường hợp quy định tại khoản 2 Điều 62 của Luật này.
3. Giá phát điện theo hợp đồng mua bán điện có thời hạn, giá bán buôn điện do các đơn vị điện lực thỏa thuận nhưng không được vượt quá khung giá phát điện, khung giá bán buôn điện đã được phê duyệt.”
16. Sửa đổi, bổ sung khoản 1 và khoản 4; bổ sung khoản 5 vào Điều 32 như sau:
“1. Tổ chức, cá nhân được cấp giấy phép để thực hiện một hoặc nhiều lĩnh vực hoạt động điện lực.
4. Chính phủ quy định cụ thể điều kiện cấp giấy phép đối với từng lĩnh vực hoạt động điện lực.
5. Bộ Công thương quy định trình tự, thủ tục cấp, gia hạn, sửa đổi, bổ sung và thời hạn giấy phép hoạt động điện lực đối với từng lĩnh vực hoạt động điện lực.”
17. Điểm a khoản 2 Điều 39 được sửa đổi, bổ sung như sau:
“a) Tuân thủ quy trình, quy chuẩn kỹ thuật về vận hành nhà máy điện, lưới điện; đối với nhà máy thủy điện còn phải tuân thủ quy định về an toàn đập thủy điện và vận hành hồ chứa nước;”
18. Điểm c khoản 1 Điều 44 được sửa đổi, bổ sung như sau:
“c) Định giá bán trên thị trường bán lẻ điện cạnh tranh theo quy định tại khoản 1 Điều 31 của Luật này, trừ trường hợp quy định tại khoản 2 Điều 62 của Luật này.”
19. Sửa đổi, bổ sung tên Điều 49; bổ sung khoản 4 vào Điều 49 như sau:
“Điều 49. Trách nhiệm phối hợp thực hiện khi xây dựng, cải tạo, kết thúc sử dụng công trình điện lực và các công trình khác
4. Khi không còn khai thác, sử dụng thì công trình điện lực phải được xử lý, quản lý bảo đảm an toàn theo quy định của Chính phủ.”
20. Khoản 1 Điều 54 được sửa đổi, bổ sung như sau:
“1. Nhà máy điện, trạm phát điện phải được bảo vệ nghiêm ngặt, xung quanh phải có tường rào bảo vệ, biển báo an toàn về điện, về phòng cháy, chữa cháy.”
21. Bổ sung Điều 59a vào sau Điều 59 như sau:
“Điều 59a. Xử lý sự cố điện
1. Trường hợp xảy ra sự cố điện, đơn vị điện lực trong phạm vi nhiệm vụ, quyền hạn của mình có trách nhiệm xử lý theo quy định của pháp luật.
2. Trường hợp xảy ra sự cố điện nghiêm trọng đến mức thảm họa lớn thì việc ban bố tình trạng khẩn cấp và áp dụng các biện pháp ứng phó phải thực hiện theo quy định của pháp luật về tình trạng khẩn cấp.”
22. Điều 62 được sửa đổi, bổ sung như sau:
“Điều 62. Giá bán điện ở nông thôn, miền núi, biên giới, hải đảo
1. Giá bán điện ở nông thôn, miền núi, biên giới, hải đảo khu vực nối lưới điện quốc gia được thực hiện theo quy định tại Điều 31 của Luật này.
2. Giá bán điện ở nông thôn, miền núi, biên giới, hải đảo khu vực chưa nối lưới điện quốc gia được thực hiện như sau:
a) Giá bán lẻ điện cho mục đích sinh hoạt do đơn vị điện lực có liên quan xây dựng, Ủy ban nhân dân cấp tỉnh quyết định;
b) Các loại giá điện khác do đơn vị điện lực có liên quan xây dựng, Ủy ban nhân dân cấp tỉnh quyết định.”
23. Sửa đổi, bổ sung các điểm đ, g và k khoản 1; bổ sung điểm m và điểm n khoản 1; sửa đổi, bổ sung khoản 2 Điều 66 như sau:
“đ) Xây dựng khung giá của mức giá bán lẻ điện bình quân, cơ chế điều chỉnh giá và cơ cấu biểu giá bán lẻ điện; tổ chức thực hiện cơ chế, chính sách về giá điện;
g) Quy định khung giá phát điện, khung giá bán buôn điện, phê duyệt giá truyền tải điện;
k) Kiểm tra, giám sát việc điều chỉnh và thực hiện giá điện;
m) Kiểm tra hợp đồng mua bán điện có thời hạn giữa đơn vị phát điện và đơn vị mua điện;
n) Kiểm tra và xử lý vi phạm trong lĩnh vực điện lực theo quy định của pháp luật.
2. Thủ tướng Chính phủ quy định cụ thể về tổ chức, chức năng, nhiệm vụ, quyền hạn của cơ quan điều tiết điện lực.”
24. Điều 67 được sửa đổi, bổ sung như sau:
“Điều 67. Thanh tra chuyên ngành điện lực
Thanh tra chuyên ngành điện lực thực hiện theo quy định của pháp luật về thanh tra.”
Điều 2.
1. Sửa đổi một số từ ngữ của Luật điện lực như sau:
a) Thay cụm từ “quy hoạch phát triển điện lực địa phương” bằng cụm từ “quy hoạch phát triển điện lực tỉnh, thành phố trực thuộc trung ương” tại khoản 2 Điều 10;
b) Thay cụm từ “phi dịch vụ phụ trợ” bằng cụm từ “giá dịch vụ phụ trợ” tại điểm h khoản 1 Điều 21; thay cụm từ “các loại phí dịch vụ” bằng cụm từ “giá dịch vụ phụ trợ” tại điểm b khoản 2 Điều 21;
c) Thay cụm từ “phí truyền tải điện” bằng cụm từ “giá truyền tải điện” tại điểm b khoản 1 Điều 40;
d) Thay từ “quy phạm bằng cụm từ “quy chuẩn kỹ thuật” tại khoản 4 Điều 11; điểm b khoản 2 Điều 28 khoản 2 Điều 34; điểm đ khoản 1 Điều 39; điểm d khoản 1 Điều 40; điểm đ khoản 1 Điều 41; điểm b khoản 1 và điểm a khoản 2 Điều 45; điểm b khoản 5 và khoản 6 Điều 54; khoản 7 và khoản 8 Điều 55; các khoản 1, 2, 3 và 7 Điều 57; khoản 1 Điều 64;
đ) Thay cụm từ “quy phạm kỹ thuật” bằng cụm từ “quy chuẩn kỹ thuật” tại khoản 12 Điều 3; khoản 5 Điều 55;
e) Thay cụm từ “Bộ Công nghiệp” bằng cụm từ “Bộ Công thương” tại khoản 7 Điều 3; khoản 4 Điều 10; khoản 5 Điều 11; khoản 3 Điều 13; khoản 3 Điều 21; điểm b khoản 1 Điều 34; khoản 1 và khoản 2 Điều 38; khoản 1 và khoản 2 Điều 56; khoản 5 Điều 59; khoản 3 Điều 61; khoản 4 Điều 64; khoản 2 và khoản 3 Điều 65.
2. Bãi bỏ từ “thứ tự” tại khoản 1 Điều 18; bãi bỏ điểm b khoản 1 Điều 41; điểm e khoản 1 Điều 66 của Luật điện lực.
3. Bổ sung từ “minh bạch” vào sau cụm từ “Bảo đảm công khai” tại khoản 1 Điều 17 của Luật điện lực.
4. Bổ sung cụm từ “bảo đảm quyền lợi giữa các bên nhưng không trái với quy định của pháp luật” vào sau cụm từ “trừ trường hợp các bên có thỏa thuận khác” tại khoản 1 và khoản 3 Điều 24; vào cuối điểm i khoản 2 Điều 39, điểm e khoản 2 Điều 40 và điểm c khoản 2 Điều 41 của Luật điện lực.
5. Bổ sung từ “biên giới” vào sau cụm từ “nông thôn, miền núi” tại tên Chương VIII; tên các điều 60, 61 và 64; các khoản 1, 3 và 4 Điều 60; khoản 4 Điều 61; các khoản 1, 2 và 4 Điều 64 của Luật điện lực.
Điều 3.
1. Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2013.
2. Chính phủ, cơ quan có thẩm quyền quy định chi tiết, hướng dẫn thi hành các điều, khoản được giao trong Luật.
Luật này đã được Quốc hội nước Cộng hòa xã hội chủ nghĩa Việt Nam khóa XIII, kỳ họp thứ 4 thông qua ngày 20 tháng 11 năm 2012.
"""

# amending item → the provisions it names, "article/clause/point"; "+" marks a unit the instruction inserts.
GOLD: dict[str, list[str]] = {
    "1/1": ["3/+17", "3/+18"], "1/2": ["4/+1a", "4/3", "4/4"], "1/3": ["8/1", "8/3"], "1/4": ["+8a"],
    "1/5": ["9", "9/1", "9/2"], "1/6": ["11/1"], "1/7": ["16/1/đ"], "1/8": ["18/2"], "1/9": ["23/6"], "1/10": ["24/2"],
    "1/11": ["25", "25/1", "25/2"], "1/12": ["28/2/c"], "1/13": ["29/+1a", "29/3", "29/4"], "1/14": ["30/+6"],
    "1/15": ["31/1", "31/2", "31/3"], "1/16": ["32/1", "32/4", "32/+5"], "1/17": ["39/2/a"], "1/18": ["44/1/c"],
    "1/19": ["49", "49/+4"], "1/20": ["54/1"], "1/21": ["+59a"], "1/22": ["62"],
    "1/23": ["66/1/đ", "66/1/g", "66/1/k", "66/1/+m", "66/1/+n", "66/2"], "1/24": ["67"],
    "2/1/a": ["10/2"], "2/1/b": ["21/1/h", "21/2/b"], "2/1/c": ["40/1/b"],
    "2/1/d": ["11/4", "28/2/b", "34/2", "39/1/đ", "40/1/d", "41/1/đ", "45/1/b", "45/2/a", "54/5/b", "54/6", "55/7", "55/8",
              "57/1", "57/2", "57/3", "57/7", "64/1"],
    "2/1/đ": ["3/12", "55/5"],
    "2/1/e": ["3/7", "10/4", "11/5", "13/3", "21/3", "34/1/b", "38/1", "38/2", "56/1", "56/2", "59/5", "61/3", "64/4",
              "65/2", "65/3"],
    "2/2": ["18/1", "41/1/b", "66/1/e"], "2/3": ["17/1"], "2/4": ["24/1", "24/3", "39/2/i", "40/2/e", "41/2/c"],
    "2/5": ["ch:VIII", "60", "61", "64", "60/1", "60/3", "60/4", "61/4", "64/1", "64/2", "64/4"],
}

# The amended act as a gazette prints a Law's header; its articles are generated from GOLD (every provision named, none
# inserted), with its chapter headings before the article each opens.
AMENDED_HEADER = ["QUỐC HỘI", "Luật số: 28/2004/QH11", "LUẬT", "ĐIỆN LỰC"]
AMENDED_CHAPTERS = {60: ["Chương VIII", "ĐIỆN Ở NÔNG THÔN, MIỀN NÚI, HẢI ĐẢO"]}
