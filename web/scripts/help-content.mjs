// The text of the help documents (public/help/help-<locale>.pdf): a short guide to the console's
// main tasks, one per console language. Names of menus and buttons are the console's own.
// Each section is a heading and blocks: a string is a paragraph, an array is a bulleted list.
// English uses straight quotes: the CJK font draws curly ones full-width.

export const HELP = {
  en: {
    title: 'WearTrack Cloud Platform — User Guide',
    subtitle: 'Locating and looking after watches, trackers and tags: the main tasks of the web console.',
    footer: 'WearTrack user guide',
    sections: [
      {
        h: '1. Signing in',
        blocks: [
          'Open the console address in a recent browser (Chrome, Edge, Firefox, Safari). Enter your account and password (at least 6 letters or digits) and press Sign in. After five wrong passwords the account is locked for a while from your address; wait and try again, or use Forgot password.',
          [
            'Forgot password: enter your account and its recovery email; a link valid for 30 minutes arrives by email and lets you set a new password once.',
            'Register: creates an account of your own with a recovery email, below the platform\'s administrator.',
            'The language (简体中文, 繁體中文, English) is chosen with the translation icon at the top right, on the sign-in page and in the console; it is remembered.',
          ],
        ],
      },
      {
        h: '2. The Monitor',
        blocks: [
          'The Monitor is the home page: every device of your account and of the accounts below it on the map, refreshed live as devices report.',
          [
            'Device list (left): search by name or IMEI, filter All / Online / Offline / SOS. Click a device to centre the map on it and open its card.',
            'Map toolbar: Normal or Satellite view, the base map (offline map, OSM / Esri, AMap), device names on or off, zoom.',
            'Device card: wearer, battery, signal, steps, the latest heart rate, blood pressure, temperature and blood oxygen, last seen, address. Buttons: Live track, History, Send command, Fences, Alarms.',
            'Send command: the commands the device model supports, such as Locate now, Upload interval (2 to 660 minutes), Text message, Restart and Power off. A device that is offline receives the command when it next connects; the result is shown when it answers.',
          ],
        ],
      },
      {
        h: '3. Devices',
        blocks: [
          'Devices › Device list shows the devices of your account (switch Include sub-accounts to see those below), with search by IMEI, name, model, ICCID, software version, group and role; click a column title to sort.',
          [
            'Add device: model, the 15-digit IMEI and a name. Batch operations: add, bind, unbind or delete many IMEIs at once (one per line); the answer lists the IMEIs that were refused and why.',
            'Excel import creates users together with their devices: download the template, fill one row per device (the new user\'s login name, password, name and email; the device\'s IMEI, ICCID, model and name) and upload it. Nothing is imported unless every row is valid; refused rows are shown with their sheet row and column.',
            'Bind and unbind: a bound device belongs to its account and is watched; an unbound one stays registered and can be bound again. Move to account gives selected devices to another account of yours; Devices for a new user creates an account together with its devices.',
            'Person: the wearer\'s name, photo, gender, age, blood type and contacts, shown on the Monitor card.',
            'Device roles (at most 30 per account): a name, colour and shape that mark devices on the map, such as "Needs care" in red. Assign them from the list or the role page.',
            'Device fences: circles or polygons (at least 3 points, at most 10 fences per device). Entering or leaving a fence raises an alarm.',
            'Export: an Excel file of every device that matches the search, however many; the progress is shown while it downloads.',
          ],
        ],
      },
      {
        h: '4. Location history',
        blocks: [
          'From the device list (More › Location history) or the Monitor card: choose the device and the range (today, last week, last month, last three months or your own dates), then Show track.',
          [
            'Play, Pause, Continue, Faster and Slower replay the path; stops and each point show their time, speed and address.',
            'Export saves the track as an Excel file. Batch export saves the tracks of several devices; one date selection can be exported three times in 24 hours.',
          ],
        ],
      },
      {
        h: '5. Alarms',
        blocks: [
          'SOS, falls, taking off the watch, low battery, power off, fences, abnormal health readings and going offline raise alarms. A new alarm pops up at the bottom right with a sound; SOS keeps ringing until you look at it. The bell at the top shows the latest alarms.',
          [
            'Alarm records: filter by time, type, state and device; Confirm one alarm with a remark of what was done, or Confirm all of today with one remark. Export saves the records as Excel (at most 100 000 rows).',
            'Alarm settings › Alarm pop-ups: for each alarm type, whether it pops up and how it rings (keep ringing, a few sounds, silent).',
            'Alarm settings › Health thresholds: the limits of heart rate, blood pressure, temperature and blood oxygen. A value beyond a limit alarms; the limit itself is normal. A device without its own limits uses its account\'s, then the nearest account above, then the defaults.',
            'Alarm settings › Alarm contacts: people told by SMS or email when an alarm opens, for every type or the types you choose.',
          ],
        ],
      },
      {
        h: '6. Health',
        blocks: [
          'Health › Health data lists the readings of your watches, one row per device and report time: heart rate, blood pressure, body and wrist temperature, blood oxygen, HRV, steps, calories and sleep. Filter by time, device and kind of data; Export saves them as Excel.',
          [
            'Detail opens a device\'s charts by day, week or month. The normal range is drawn as a band, health alarms as red pins, sleep as deep, light and awake minutes per night. A chart says "No data in this period" when the device sent none of that measure.',
            'Measure heart rate and Measure blood pressure ask the watch to measure now; the reading appears when the watch answers.',
          ],
        ],
      },
      {
        h: '7. Partner push (administrators)',
        blocks: [
          'Push › Push list sends alarms to partner companies\' systems over HTTPS. Add a company with its push URL, the alarms it wants (all alarms, SOS and falls, or health alarms), the format and a verification code. Every message is signed: X-Signature is the HMAC-SHA256 of the body keyed by that code. Failed deliveries are retried with growing pauses; the Deliveries tab shows each attempt and its result.',
        ],
      },
      {
        h: '8. Integrations',
        blocks: [
          'Devices › Integrations lets a LoRa network server (such as ChirpStack) or another system send device data over HTTP. New integration: a name and the owner account; the token is shown once only, with the uplink URL and an example, so copy it then. The integration writes only devices of its owner account and the accounts below it. New token replaces a lost token; disabling or deleting stops the uplink.',
        ],
      },
      {
        h: '9. Accounts, languages and settings',
        blocks: [
          [
            'Accounts: every account sees itself and the accounts below it, never a neighbour\'s devices. Agents look after their customers\' accounts; what each user may open depends on their user type and permission set.',
            'Your name at the top right: Change password (6 to 30 letters and digits with an upper-case letter, a lower-case letter and a digit; you are then logged out everywhere), Download help, Log out.',
            'Layout settings (gear icon): theme colour, tags view, fixed header and sidebar logo. Tags under the header keep the pages you opened; right-click a tag to Refresh, Close, Close Others or Close All.',
            'The layout size and the language are kept in your browser.',
          ],
        ],
      },
    ],
  },

  'zh-CN': {
    title: 'WearTrack 穿戴设备云平台 使用指南',
    subtitle: '定位与看护手表、定位器和标签：网页控制台的主要操作。',
    footer: 'WearTrack 使用指南',
    sections: [
      {
        h: '1. 登录',
        blocks: [
          '用新版浏览器（Chrome、Edge、Firefox、Safari）打开控制台地址，输入账号和密码（至少 6 位字母或数字），点击“登录”。同一地址连续输错五次密码会暂时锁定该账号，请稍后再试或使用“找回密码”。',
          [
            '找回密码：输入账号和找回邮箱，邮件中的链接 30 分钟内有效，可设置一次新密码。',
            '注册账号：填写找回邮箱即可创建自己的账号，账号位于平台管理员之下。',
            '语言（简体中文、繁體中文、English）在登录页和控制台右上角的翻译图标中切换，浏览器会记住选择。',
          ],
        ],
      },
      {
        h: '2. 监控中心',
        blocks: [
          '监控中心是首页：地图上显示本账户及下级账户的全部设备，设备上报后实时刷新。',
          [
            '设备列表（左侧）：按名称或 IMEI 搜索，按全部 / 在线 / 离线 / SOS 筛选；点击设备，地图移到该设备并打开设备卡片。',
            '地图工具栏：普通或卫星视图，底图（离线地图、OSM / Esri、高德），显示或隐藏设备名称，缩放。',
            '设备卡片：佩戴人、电量、信号、步数，最近的心率、血压、体温、血氧，最后通讯时间和地址；按钮：实时跟踪、历史轨迹、发送指令、围栏、告警。',
            '发送指令：设备型号支持的指令，如立即定位、上传间隔（2 至 660 分钟）、文字消息、重启、关机。离线设备在下次连接时收到指令，设备回复后显示结果。',
          ],
        ],
      },
      {
        h: '3. 设备管理',
        blocks: [
          '“设备管理 › 设备列表”显示本账户的设备（打开“包含下级账户”可看下级的设备），可按 IMEI、名称、型号、ICCID、软件版本、分组和角色查询，点击列标题排序。',
          [
            '添加设备：型号、15 位 IMEI 和名称。批量操作：一次添加、绑定、解绑或删除多个 IMEI（每行一个），结果列出未成功的 IMEI 及原因。',
            'Excel 导入同时创建用户和设备：下载模板，每行填写一台设备（新用户的登录名、密码、名称和邮箱，设备的 IMEI、ICCID、型号和名称）后上传。只有全部行都正确才会导入，出错的行会标明表格中的行和列。',
            '绑定与解绑：已绑定的设备属于其账户并受监控；解绑后设备仍在平台登记，可再次绑定。“转移账户”把选中的设备交给自己名下的其他账户；“为新用户创建设备”同时创建账户和设备。',
            '人员信息：佩戴人的姓名、照片、性别、年龄、血型和联系方式，显示在监控中心的设备卡片上。',
            '设备角色（每个账户最多 30 个）：用名称、颜色和形状在地图上标记设备，例如红色的“重点看护”。可在设备列表或角色页面分配。',
            '设备围栏：圆形或多边形（至少 3 个点，每台设备最多 10 个围栏），进入或离开围栏时产生告警。',
            '导出：把符合查询条件的全部设备导出为 Excel 文件，不限数量，下载时显示进度。',
          ],
        ],
      },
      {
        h: '4. 历史轨迹',
        blocks: [
          '从设备列表（更多 › 历史轨迹）或监控中心的设备卡片进入：选择设备和时间范围（今天、最近一周、最近一月、最近三个月或自选日期），点击“查询轨迹”。',
          [
            '播放、暂停、继续、快进、慢放回放轨迹；停留点和每个轨迹点显示时间、速度和地址。',
            '“导出”把轨迹保存为 Excel；“批量导出”保存多台设备的轨迹，同一日期范围 24 小时内最多导出 3 次。',
          ],
        ],
      },
      {
        h: '5. 告警管理',
        blocks: [
          'SOS、跌倒、摘下手表、低电量、关机、围栏、健康数据异常和离线都会产生告警。新告警在右下角弹出并响铃，SOS 会一直响到有人查看；顶部的铃铛显示最近的告警。',
          [
            '告警记录：按时间、类型、状态和设备查询；“确认”单条告警并填写处理备注，或用“一键确认今日报警”统一备注。“导出”保存为 Excel（最多 10 万行）。',
            '告警设置 › 报警弹窗：每种告警是否弹窗以及提醒方式（持续响铃、响几声、静音）。',
            '告警设置 › 健康阈值：心率、血压、体温和血氧的上下限。超出限值才告警，等于限值为正常。设备没有单独设置时依次使用本账户、最近的上级账户和默认值。',
            '告警设置 › 报警联系人：告警产生时通过短信或邮件通知的人员，可接收全部类型或指定类型。',
          ],
        ],
      },
      {
        h: '6. 健康数据',
        blocks: [
          '“健康 › 健康数据”列出手表的测量数据，每台设备每次上报一行：心率、血压、体温和腕温、血氧、HRV、步数、卡路里和睡眠。可按时间、设备和数据类型筛选，“导出”保存为 Excel。',
          [
            '“详情”按日、周、月显示设备的图表：正常范围画成色带，健康告警为红色标记，睡眠按每晚的深睡、浅睡和清醒分钟显示。某项数据在所选时段没有上报时，图表显示“此时段暂无数据”。',
            '“测量心率”和“测量血压”让手表立即测量，手表回复后数据出现在图表中。',
          ],
        ],
      },
      {
        h: '7. 告警推送（管理员）',
        blocks: [
          '“消息推送 › 推送列表”通过 HTTPS 把告警推送给合作公司的系统。添加推送公司时填写推送地址、推送内容（全部报警、SOS 与跌倒或健康报警）、格式和校验码。每条消息都有签名：X-Signature 为以校验码为密钥对消息体计算的 HMAC-SHA256。推送失败会按逐渐加长的间隔重试，“推送记录”页显示每次尝试及结果。',
        ],
      },
      {
        h: '8. 接入集成',
        blocks: [
          '“设备管理 › 接入集成”让 LoRa 网络服务器（如 ChirpStack）或其他系统通过 HTTP 上报设备数据。“新建集成”填写名称和所属账户；令牌只显示一次，同时给出上报地址和示例，请当时复制保存。集成只能写入所属账户及其下级账户的设备。令牌丢失时用“更换令牌”；停用或删除后不再接收上报。',
        ],
      },
      {
        h: '9. 账户、语言与设置',
        blocks: [
          [
            '账户：每个账户能看到自己和下级账户，看不到其他账户的设备。代理商管理其客户的账户；用户能打开哪些页面由用户类型和权限集决定。',
            '右上角的用户名菜单：修改密码（6 至 30 位字母和数字，须含大写字母、小写字母和数字，修改后所有登录都会退出）、下载帮助文档、退出登录。',
            '系统布局设置（齿轮图标）：主题颜色、标签栏、固定页头和侧栏标志。页头下的标签保存打开过的页面，右键标签可刷新、关闭、关闭其他、关闭所有。',
            '布局大小和语言保存在浏览器中。',
          ],
        ],
      },
    ],
  },

  'zh-TW': {
    title: 'WearTrack 穿戴裝置雲平臺 使用指南',
    subtitle: '定位與看護手錶、定位器和標籤：網頁控制檯的主要操作。',
    footer: 'WearTrack 使用指南',
    sections: [
      {
        h: '1. 登入',
        blocks: [
          '用新版瀏覽器（Chrome、Edge、Firefox、Safari）開啟控制檯網址，輸入帳號和密碼（至少 6 位字母或數字），點選「登入」。同一位址連續輸錯五次密碼會暫時鎖定該帳號，請稍後再試或使用「找回密碼」。',
          [
            '找回密碼：輸入帳號和找回信箱，郵件中的連結 30 分鐘內有效，可設定一次新密碼。',
            '註冊帳號：填寫找回信箱即可建立自己的帳號，帳號位於平臺管理員之下。',
            '語言（简体中文、繁體中文、English）在登入頁和控制檯右上角的翻譯圖示中切換，瀏覽器會記住選擇。',
          ],
        ],
      },
      {
        h: '2. 監控中心',
        blocks: [
          '監控中心是首頁：地圖上顯示本帳戶及下級帳戶的全部裝置，裝置上報後即時重新整理。',
          [
            '裝置列表（左側）：按名稱或 IMEI 搜尋，按全部 / 線上 / 離線 / SOS 篩選；點選裝置，地圖移到該裝置並開啟裝置卡片。',
            '地圖工具列：普通或衛星檢視，底圖（離線地圖、OSM / Esri、高德），顯示或隱藏裝置名稱，縮放。',
            '裝置卡片：佩戴人、電量、訊號、步數，最近的心率、血壓、體溫、血氧，最後通訊時間和地址；按鈕：即時跟蹤、歷史軌跡、傳送指令、圍欄、告警。',
            '傳送指令：裝置型號支援的指令，如立即定位、上傳間隔（2 至 660 分鐘）、文字訊息、重啟、關機。離線裝置在下次連線時收到指令，裝置回覆後顯示結果。',
          ],
        ],
      },
      {
        h: '3. 裝置管理',
        blocks: [
          '「裝置管理 › 裝置列表」顯示本帳戶的裝置（開啟「包含下級帳戶」可看下級的裝置），可按 IMEI、名稱、型號、ICCID、軟體版本、分組和角色查詢，點選欄標題排序。',
          [
            '新增裝置：型號、15 位 IMEI 和名稱。批次操作：一次新增、繫結、解綁或刪除多個 IMEI（每行一個），結果列出未成功的 IMEI 及原因。',
            'Excel 匯入同時建立使用者和裝置：下載範本，每行填寫一台裝置（新使用者的登入名、密碼、名稱和信箱，裝置的 IMEI、ICCID、型號和名稱）後上傳。只有全部行都正確才會匯入，出錯的行會標明表格中的行和欄。',
            '繫結與解綁：已繫結的裝置屬於其帳戶並受監控；解綁後裝置仍在平臺登記，可再次繫結。「轉移帳戶」把選中的裝置交給自己名下的其他帳戶；「為新使用者建立裝置」同時建立帳戶和裝置。',
            '人員資訊：佩戴人的姓名、照片、性別、年齡、血型和聯絡方式，顯示在監控中心的裝置卡片上。',
            '裝置角色（每個帳戶最多 30 個）：用名稱、顏色和形狀在地圖上標記裝置，例如紅色的「重點看護」。可在裝置列表或角色頁面分配。',
            '裝置圍欄：圓形或多邊形（至少 3 個點，每台裝置最多 10 個圍欄），進入或離開圍欄時產生告警。',
            '匯出：把符合查詢條件的全部裝置匯出為 Excel 檔案，不限數量，下載時顯示進度。',
          ],
        ],
      },
      {
        h: '4. 歷史軌跡',
        blocks: [
          '從裝置列表（更多 › 歷史軌跡）或監控中心的裝置卡片進入：選擇裝置和時間範圍（今天、最近一週、最近一月、最近三個月或自選日期），點選「查詢軌跡」。',
          [
            '播放、暫停、繼續、快進、慢放回放軌跡；停留點和每個軌跡點顯示時間、速度和地址。',
            '「匯出」把軌跡儲存為 Excel；「批次匯出」儲存多台裝置的軌跡，同一日期範圍 24 小時內最多匯出 3 次。',
          ],
        ],
      },
      {
        h: '5. 告警管理',
        blocks: [
          'SOS、跌倒、摘下手錶、低電量、關機、圍欄、健康資料異常和離線都會產生告警。新告警在右下角彈出並響鈴，SOS 會一直響到有人檢視；頂部的鈴鐺顯示最近的告警。',
          [
            '告警記錄：按時間、型別、狀態和裝置查詢；「確認」單條告警並填寫處理備註，或用「一鍵確認今日報警」統一備註。「匯出」儲存為 Excel（最多 10 萬行）。',
            '告警設定 › 報警彈窗：每種告警是否彈窗以及提醒方式（持續響鈴、響幾聲、靜音）。',
            '告警設定 › 健康閾值：心率、血壓、體溫和血氧的上下限。超出限值才告警，等於限值為正常。裝置沒有單獨設定時依次使用本帳戶、最近的上級帳戶和預設值。',
            '告警設定 › 報警聯絡人：告警產生時透過簡訊或郵件通知的人員，可接收全部型別或指定型別。',
          ],
        ],
      },
      {
        h: '6. 健康資料',
        blocks: [
          '「健康 › 健康資料」列出手錶的測量資料，每台裝置每次上報一行：心率、血壓、體溫和腕溫、血氧、HRV、步數、卡路里和睡眠。可按時間、裝置和資料型別篩選，「匯出」儲存為 Excel。',
          [
            '「詳情」按日、週、月顯示裝置的圖表：正常範圍畫成色帶，健康告警為紅色標記，睡眠按每晚的深睡、淺睡和清醒分鐘顯示。某項資料在所選時段沒有上報時，圖表顯示「此時段暫無資料」。',
            '「測量心率」和「測量血壓」讓手錶立即測量，手錶回覆後資料出現在圖表中。',
          ],
        ],
      },
      {
        h: '7. 告警推送（管理員）',
        blocks: [
          '「訊息推送 › 推送列表」透過 HTTPS 把告警推送給合作公司的系統。新增推送公司時填寫推送網址、推送內容（全部報警、SOS 與跌倒或健康報警）、格式和校驗碼。每條訊息都有簽章：X-Signature 為以校驗碼為金鑰對訊息本文計算的 HMAC-SHA256。推送失敗會按逐漸加長的間隔重試，「推送記錄」頁顯示每次嘗試及結果。',
        ],
      },
      {
        h: '8. 接入整合',
        blocks: [
          '「裝置管理 › 接入整合」讓 LoRa 網路伺服器（如 ChirpStack）或其他系統透過 HTTP 上報裝置資料。「新建整合」填寫名稱和所屬帳戶；令牌只顯示一次，同時給出上報位址和範例，請當時複製儲存。整合只能寫入所屬帳戶及其下級帳戶的裝置。令牌遺失時用「更換令牌」；停用或刪除後不再接收上報。',
        ],
      },
      {
        h: '9. 帳戶、語言與設定',
        blocks: [
          [
            '帳戶：每個帳戶能看到自己和下級帳戶，看不到其他帳戶的裝置。代理商管理其客戶的帳戶；使用者能開啟哪些頁面由使用者型別和權限集決定。',
            '右上角的使用者名稱選單：修改密碼（6 至 30 位字母和數字，須含大寫字母、小寫字母和數字，修改後所有登入都會退出）、下載幫助文件、退出登入。',
            '系統佈局設定（齒輪圖示）：主題顏色、標籤欄、固定頁首和側欄標誌。頁首下的標籤儲存開啟過的頁面，右鍵標籤可重新整理、關閉、關閉其他、關閉所有。',
            '佈局大小和語言儲存在瀏覽器中。',
          ],
        ],
      },
    ],
  },
};
