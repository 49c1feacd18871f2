# Evident 的中文措辞：用户读到的每一条消息、问题和判定，按代码排列。
# The Chinese twin of en.ftl; see there for how ids and parameters work. The
# parameters are the same; words quoted from a document or a server stay as they were.

list-separator = 、

## 答案中的句子为何被标出、为何没有找到、以及提示。

message-not-retrieved = 引用了 [{ $n }]，但它不在检索结果中
message-supported-by-other = [{ $support }] 支持这句话，但它引用的是 { $cites }
message-uncited-but-supported = 没有引用；[{ $n }] 支持这句话
message-uncited-unsupported = 没有引用，检索到的段落也不支持这句话
message-clause-number-missing = [{ $n }] 中没有第 { $value } 条
message-number-misplaced = { $value } 出现在 [{ $n }] 中，但不在这句话所述的条款里
message-number-missing = [{ $n }] 中没有 { $value }
message-negates-source = 这句话否定了 [{ $n }] 的说法
message-only-under-condition = [{ $n }] 只在特定条件下这样规定（{ $condition }）
message-source-negative = [{ $n }] 的说法是否定的
message-qualifier-mismatch = [{ $n }] 写的是“{ $source_word }”，不是“{ $claim_word }”
message-tier-mismatch = [{ $n }] 中 { $value } 适用于“{ $applies_to }”；对“{ $condition }”，原文是 { $source_value }
message-condition-differs = [{ $n }] 规定的是“{ $source }”的情形，不是“{ $claim }”
message-bound-differs = [{ $n }] 写的是“{ $source }”，不是“{ $claim }”
message-modality-differs = [{ $n }] 说的是“{ $source }”，不是“{ $claim }”
message-role-differs = [{ $n }] 在此处写的是“{ $source }”，不是“{ $claim }”
message-condition-dropped = [{ $n }] 只对“{ $condition }”这样规定，这句话省略了这个条件
message-scope-differs = 这句话说“{ $word }”，[{ $n }] 此处没有这样的范围，请核对适用范围
message-conflict = [{ $support }] 支持这句话，但同样相关的 [{ $contradicts }] 说法不同
message-few-key-words = 这句话的 { $total } 个关键词中只有 { $found } 个出现在 [{ $n }] 中
message-some-key-words = 这句话的 { $total } 个关键词中有 { $found } 个出现在 [{ $n }] 中
message-nothing-about-it = 您的文件中没有与这句话相关的内容
message-no-documents = 还没有导入任何文件
message-no-words = 问题中没有可检索的词（只有疑问词或标点）
message-no-key-word-in-documents = 问题的关键词都没有出现在您的文件中
message-no-passage-with-key-words = 没有段落包含问题的关键词
message-nothing-close = 您的文件中没有与问题相近的内容
message-no-sentence-speaks = 检索到的段落中没有句子回答这个问题
message-unmentioned = 您的文件中没有提到“{ $names }”
message-rankings-disagree = 关键词检索与语义检索对哪些段落相关意见不一
message-few-question-words = 最接近的段落只包含问题的部分关键词
message-kind-not-stated = 最接近的句子没有说出问题所问的内容（金额、期限、审批人、时间或是否允许）
message-not-sure = 最接近的句子可能回答了问题，但把握只有 { $sure }%，确定的回答需要 { $needed }%
message-question-cut = 问题过长，只使用了前 { $chars } 个字符。
message-over-budget = 段落 { $passages } 超出了 { $budget } 个词元的上下文预算，未被使用。
message-no-server = 未设置嵌入服务器，仅使用关键词检索
message-not-embedded = 您的文件尚未用 { $model } 生成向量；在此之前仅使用关键词检索
message-partly-embedded = { $total } 个段落中已有 { $embedded } 个用 { $model } 生成向量；其余段落在生成向量前仅按关键词检索
message-server-unusable =
    嵌入模型不可用（{ $why ->
        [none] { $detail }
       *[other] { $why }
    }），仅使用关键词检索
message-rerank-unusable =
    重排序模型不可用（{ $why ->
        [none] { $detail }
       *[other] { $why }
    }），段落按原排序
message-model-found-nothing = 模型认为检索到的段落不能回答这个问题
message-model-unsupported = 模型回答中没有一句得到段落的支持；以下是最接近的段落
message-model-cut-short = 模型的回答达到 { $tokens } 个词元的上限，可能不完整。
message-model-stopped = 您停止了模型的回答；以下是摘录式回答
message-model-failed =
    模型回答失败（{ $why ->
        [none] { $detail }
       *[other] { $why }
    }）；以下是摘录式回答
message-model-said-nothing = 模型没有给出任何文字；以下是摘录式回答
message-model-cited-nothing = 模型的回答没有引用任何段落，无法核对；以下是摘录式回答
message-sources-differ = 注意：[{ $a }] 与 [{ $b }] 来自不同文件，对同一规定给出的数值不一致，请核对两处原文。

## 句子颜色的含义：只比较词语、数字、条件和角色，不声称更多。

verdict-supported = 与引用段落一致
verdict-partially-supported = 与引用段落部分一致
verdict-contradicted = 与 [{ $n }] 矛盾
verdict-not-found = 引用段落中没有找到

## 文件为何无法导入，模型服务器为何无法使用。

problem-unreadable =
    { $cause ->
        [not_found] 文件不存在
        [permission_denied] 没有读取这个文件的权限
       *[other] 无法读取文件（{ $detail }）
    }
problem-empty = 文件是空的
problem-binary = 这看起来是二进制文件，不是文本
problem-undecodable =
    { $encoding ->
        [none] 文本不是有效的 UTF-8，也无法识别其编码
       *[other] 文本无法按 { $encoding } 解码（含有无效字节）
    }
problem-no-text = 文件中没有文字
problem-too-large =
    文件大小为 { $mb } MB；{ $kind ->
        [pdf] PDF 文件
        [docx] Word 文件
        [text] Markdown 和文本文件
       *[other] 此类文件
    }最大可读取 { $limit_mb } MB
problem-changed = 读取时文件发生了变化；保存完成后会重新读取
problem-link-outside = 指向文件夹之外（{ $target }）的链接不会被跟随；如需导入，请直接导入那个文件夹
problem-unsupported =
    不支持的文件类型（{ $ext ->
        [none] 无扩展名
       *[other] { $ext }
    }）；Evident 读取 .md、.txt、.pdf 和 .docx
problem-old-word = 这是旧版二进制 Word 文档（.doc），Evident 无法读取；请在 Word 或 LibreOffice 中打开并另存为 .docx
problem-word-locked = 这个 Word 文件设有密码；请在 Word 中取消密码（文件 → 信息 → 保护文档）后再导入
problem-not-word =
    { $detail ->
        [none] 这不是 Word 文档：其中没有正文（word/document.xml）
       *[other] 文件已损坏或不是 Word 文档（不是可读的 .docx 压缩包：{ $detail }）
    }
problem-word-damaged = Word 文件已损坏：其部件 { $part } 无法读取（{ $detail }）
problem-word-too-many-parts = 压缩包中有 { $entries } 个条目；Word 文档只有几十个
problem-word-part-too-large = 其部件 { $part } 解压后超过 { $limit_mb } MB；Word 文档远比这小（可能是压缩炸弹）
problem-not-pdf = 这不是 PDF 文件（没有 %PDF 文件头）
problem-pdf-locked = 这个 PDF 设有密码；请去掉密码（例如打印成新的 PDF）后再导入
problem-pdf-damaged = PDF 已损坏，无法读取（{ $detail }）
problem-pdf-no-pages = 这个 PDF 没有页面（页面树缺失或损坏）
problem-pdf-no-unicode = 其文字无法解码为可读字符（PDF 的字体缺少 Unicode 映射），从页面图像中也识别不出文字
problem-pdf-scanned = { $pages } 页中没有一页有文字层，从页面图像中也识别不出文字
problem-pages-textless = 第 { $pages } 页没有文字（可能是扫描图像），未能建立索引
problem-pages-unreadable = 第 { $pages } 页的文字无法解码为可读字符（字体缺少 Unicode 映射），未建立索引
problem-page-unread = 第 { $page } 页无法完整读取（{ $detail }）
problem-pages-read = 第 { $pages } 页没有文字层，已从图像中识别文字（OCR），引文可能有识别错误
problem-pages-no-text = 第 { $pages } 页的图像中没有可识别的文字（空白页或照片），未建立索引
problem-ocr-unavailable = 扫描页无法识别：需要 Tesseract 及其中英文语言数据（{ $detail }）；请安装 { $packages }
problem-ocr-failed = 文字识别失败（{ $detail }）
problem-cancelled = 导入已取消，此文件未导入
problem-form-loop = 第 { $page } 页：一个图形对象引用了自身，循环已被截断
problem-pdf-no-text = 读不出任何文字（{ $detail }）
problem-pdf-reader = PDF 读取进程未能读完这个文件，文件可能已损坏（{ $detail }）
problem-not-saved = 无法保存到数据库（{ $detail }）
problem-database-busy = 数据库正被另一个 Evident 进程使用；请关闭它后重试
problem-watch-limit = 已达到系统可监视文件夹的上限（可调高 fs.inotify.max_user_watches）；下次同步时会发现更改
problem-watch-failed = 无法监视更改（{ $detail }）
problem-aliases-not-utf8 = 别名文件不是 UTF-8 文本；请另存为 UTF-8
problem-settings-invalid = 设置文件无效（{ $detail }）；请修正或删除它
problem-no-model-chosen = 请选择一个模型
problem-model = 嵌入模型 { $path } 无法使用：{ $detail }
problem-not-embedding-model = { $path } 不是嵌入模型（其架构为 { $architecture }）
problem-other = { $detail }

## 模型服务器的故障：发生了什么、该怎么做，然后是服务器自己的原话（从不翻译），
## 最后是这次是否询问过它。

problem-server = { server-what }{ server-said }{ server-remembered }
server-what =
    { $kind ->
        [unreachable] { $url } 没有模型服务器应答；请启动它（例如 `ollama serve`）或检查地址
        [timed_out] { $url } 的模型服务器没有及时应答
        [not_embedding] { $url } 的模型服务器列出了模型，却没有及时为一小段文字生成向量；它可能正在加载模型或忙于其他请求
        [key_rejected] { $url } 的模型服务器拒绝了 API 密钥；请在设置中检查
        [model_missing] { $url } 的模型服务器没有这个模型；请拉取它（例如 `ollama pull 名称`）或选择它列出的模型
        [rejected] { $url } 的模型服务器拒绝了请求
        [server_failed] { $url } 的模型服务器出错
        [bad_reply] { $url } 的模型服务器返回了 Evident 无法使用的回复
        [bad_settings] 模型服务器的设置无法使用
        [stream_cut] { $url } 的模型服务器在回答完成前停止了发送
       *[cancelled] 回答已停止
    }
server-said =
    { $status ->
        [none]
            { $detail ->
                [none] {""}
               *[other] （{ $detail }）
            }
       *[other]
            { $detail ->
                [none] （HTTP { $status }）
               *[other] （HTTP { $status }：{ $detail }）
            }
    }
server-remembered =
    { $remembered ->
        [none] {""}
       *[other] ；{ $remembered } 秒内未再询问，正在后台重新检查
    }
